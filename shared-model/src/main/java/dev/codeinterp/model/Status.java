package dev.codeinterp.model;

/** How an execution ended. */
public enum Status implements WireName {
    OK("ok"),
    ERROR("error"),
    TIMEOUT("timeout"),
    OOM("oom"),
    INTERRUPTED("interrupted");

    private final String wire;

    Status(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    public static Status fromWire(String name) {
        return WireName.find(values(), name);
    }
}
