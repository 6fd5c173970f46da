package dev.codeinterp.server.store;

/**
 * A session row. The token itself is never stored, only its SHA-256; {@code client} is who opened it
 * (quotas); {@code sandbox} the container its interpreter last ran in (or null), of whose runner
 * {@code sandboxLines} output lines are stored; {@code suspension} when it is suspended; {@code node}
 * the node that runs it (null on rows older than nodes); {@code lost} why it cannot be used any more
 * though never closed (its node was lost), else null.
 */
public record StoredSession(String id, String tokenHash, String runtime, boolean oneShot, long createdAt,
                            Long closedAt, String workspace, String client, String sandbox, long sandboxLines,
                            Suspension suspension, String node, String lost) {

    /**
     * Suspended at {@code at}, last used at {@code lastActiveAt}; its interpreter is the checkpoint
     * {@code checkpoint} of {@code checkpointBytes}, or null when its variables were not kept
     * ({@code variablesLost} then says why, if it had any).
     */
    public record Suspension(long at, long lastActiveAt, String checkpoint, long checkpointBytes, String variablesLost) {
    }

    /** A new session's row on {@code node}: no sandbox recorded yet. */
    public StoredSession(String id, String tokenHash, String runtime, boolean oneShot, long createdAt,
                         Long closedAt, String workspace, String client, String node) {
        this(id, tokenHash, runtime, oneShot, createdAt, closedAt, workspace, client, null, 0, null, node, null);
    }

    /** A new session's row, of no node (a store no node has used yet). */
    public StoredSession(String id, String tokenHash, String runtime, boolean oneShot, long createdAt,
                         Long closedAt, String workspace, String client) {
        this(id, tokenHash, runtime, oneShot, createdAt, closedAt, workspace, client, null);
    }

    public boolean suspended() {
        return suspension != null;
    }

    /**
     * Open, not lost, suspended and node {@code node}'s: a session that node may hand to another (the
     * condition {@link SessionRepository#takeOver} writes in SQL).
     */
    public boolean suspendedOn(String node) {
        return closedAt == null && lost == null && suspended() && node != null && node.equals(this.node);
    }
}
