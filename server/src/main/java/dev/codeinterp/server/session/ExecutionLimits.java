package dev.codeinterp.server.session;

import java.time.Duration;

/**
 * The limits a session enforces on every cell, whatever the runner does, and how many cells may
 * wait or run in it at once.
 */
public record ExecutionLimits(long outputCapBytes, Duration interruptGrace, long memoryBytes, int maxQueuedCells) {
}
