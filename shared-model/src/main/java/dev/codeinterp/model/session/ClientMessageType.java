package dev.codeinterp.model.session;

import dev.codeinterp.model.WireName;

public enum ClientMessageType implements WireName {
    HELLO("hello"),
    EXECUTE("execute"),
    INTERRUPT("interrupt"),
    RESTART("restart"),
    PROMPT("prompt"),
    STOP("stop"),
    INPUT_REPLY("input_reply");

    private final String wire;

    ClientMessageType(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    public static ClientMessageType fromWire(String name) {
        return WireName.find(values(), name);
    }
}
