package dev.codeinterp.server.session;

import java.time.Duration;

/**
 * The limits a session enforces on every cell, whatever the runner does, how many cells may
 * wait or run in it at once, how often its sandbox is restarted before it gives up, and how long
 * a cell may wait for a person to answer its {@code input()} (its own clock stands still meanwhile).
 */
public record ExecutionLimits(long outputCapBytes, Duration interruptGrace, long memoryBytes, int maxQueuedCells,
                              RestartPolicy restarts, Duration inputTimeout) {
}
