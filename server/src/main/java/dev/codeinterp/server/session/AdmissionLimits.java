package dev.codeinterp.server.session;

/** The numbers admission control holds the server to; defaults in {@code config.Settings}, documented in README. */
public record AdmissionLimits(int maxSessions, int maxSessionsPerClient, int maxQueuedCells, int maxConcurrentCreates) {
}
