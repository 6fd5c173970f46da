package dev.codeinterp.model;

public enum StreamName implements WireName {
    STDOUT("stdout"),
    STDERR("stderr");

    private final String wire;

    StreamName(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    public static StreamName fromWire(String name) {
        return "stderr".equals(name) ? STDERR : STDOUT;
    }
}
