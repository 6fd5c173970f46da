package dev.codeinterp.model;

/**
 * An event as a session records and sends it: numbered by a per-session sequence (1, 2, 3, …)
 * so a client that reconnects with its last {@code seq} gets exactly what it missed.
 */
public record SessionEvent(long seq, String executionId, long timestampMs, Event event) {
}
