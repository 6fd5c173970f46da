package dev.codeinterp.server.store;

/** A node row: a server sharing this store, where it is reached, how full it is and when it last said it was alive. */
public record StoredNode(String id, String url, String runtime, int capacity, int sessions, String state,
                         long startedAt, long heartbeatAt) {
    public static final String ACTIVE = "active";
    public static final String DRAINING = "draining";
    public static final String STOPPED = "stopped";
    public static final String LOST = "lost";

    /** Whether its state lets it serve requests: active, or draining (it still serves the sessions it holds). */
    public boolean takesRequests() {
        return ACTIVE.equals(state) || DRAINING.equals(state);
    }
}
