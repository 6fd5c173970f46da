package dev.codeinterp.server.store;

/** A session row. The token itself is never stored, only its SHA-256; {@code client} is who opened it (quotas). */
public record StoredSession(String id, String tokenHash, String runtime, boolean oneShot, long createdAt,
                            Long closedAt, String workspace, String client) {
}
