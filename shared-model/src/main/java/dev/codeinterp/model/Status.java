package dev.codeinterp.model;

/** How an execution ended. */
public enum Status {
    OK("ok"),
    ERROR("error"),
    TIMEOUT("timeout"),
    OOM("oom"),
    INTERRUPTED("interrupted");

    private final String wire;

    Status(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Status fromWire(String name) {
        for (Status s : values()) {
            if (s.wire.equals(name)) {
                return s;
            }
        }
        return null;
    }
}
