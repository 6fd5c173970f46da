package dev.codeinterp.server.store;

/**
 * A session row. The token itself is never stored, only its SHA-256; {@code client} is who opened it
 * (quotas); {@code sandbox} the container its interpreter last ran in (or null), of whose runner
 * {@code sandboxLines} output lines are stored.
 */
public record StoredSession(String id, String tokenHash, String runtime, boolean oneShot, long createdAt,
                            Long closedAt, String workspace, String client, String sandbox, long sandboxLines) {

    /** A new session's row: no sandbox recorded yet. */
    public StoredSession(String id, String tokenHash, String runtime, boolean oneShot, long createdAt,
                         Long closedAt, String workspace, String client) {
        this(id, tokenHash, runtime, oneShot, createdAt, closedAt, workspace, client, null, 0);
    }
}
