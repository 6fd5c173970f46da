package dev.codeinterp.server.session;

import java.time.Duration;

/**
 * The limits a session enforces on every cell, whatever the runner does, how many cells may
 * wait or run in it at once, and how often its sandbox is restarted before it gives up.
 */
public record ExecutionLimits(long outputCapBytes, Duration interruptGrace, long memoryBytes, int maxQueuedCells,
                              RestartPolicy restarts) {
}
