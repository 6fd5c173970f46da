package dev.codeinterp.server.session;

import java.time.Duration;

/** The limits a session enforces on every cell, whatever the runner does. */
public record ExecutionLimits(long outputCapBytes, Duration interruptGrace, long memoryBytes) {
}
