package dev.codeinterp.model;

public enum ClientMessageType {
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

    public String wire() {
        return wire;
    }

    public static ClientMessageType fromWire(String name) {
        for (ClientMessageType t : values()) {
            if (t.wire.equals(name)) {
                return t;
            }
        }
        return null;
    }
}
