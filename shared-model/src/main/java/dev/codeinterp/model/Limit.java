package dev.codeinterp.model;

/** The admission limits a request can run into; their wire names appear in error bodies and frames. */
public enum Limit implements WireName {
    /** Open sessions on the server in total: the server is full. */
    SESSIONS("sessions"),
    /** Open sessions of one API key (or one address, when anonymous): that client's quota. */
    SESSIONS_PER_CLIENT("sessions_per_client"),
    /** Cells waiting or running in one session. */
    QUEUED_CELLS("queued_cells"),
    /** Sessions being created at this moment (each starts a sandbox). */
    CONCURRENT_CREATES("concurrent_creates");

    private final String wire;

    Limit(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    /** The limit of a wire name, or null for null or a name this version does not know. */
    public static Limit fromWire(String name) {
        return WireName.find(values(), name);
    }
}
