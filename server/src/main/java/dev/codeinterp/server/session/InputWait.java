package dev.codeinterp.server.session;

import java.time.Duration;

/**
 * A running cell waiting for a person to answer its {@code input()}: since when, and until when at
 * most. While it waits the cell's own timeout stands still (a person typing is not the code running);
 * the wait has its own bound, {@code INPUT_TIMEOUT}.
 */
final class InputWait {
    private static final long NOT_WAITING = Long.MIN_VALUE;

    private final Duration limit;
    private long since = NOT_WAITING;

    InputWait(Duration limit) {
        this.limit = limit;
    }

    boolean waiting() {
        return since != NOT_WAITING;
    }

    void begin(long now) {
        since = now;
    }

    /** The wait is over (answered, interrupted, out of time): how long it lasted, in nanoseconds; 0 if none. */
    long end(long now) {
        if (!waiting()) {
            return 0;
        }
        long waited = Math.max(0, now - since);
        since = NOT_WAITING;
        return waited;
    }

    /** When the person's time is up, on the {@link System#nanoTime()} clock. */
    long deadline() {
        return since + limit.toNanos();
    }

    Duration limit() {
        return limit;
    }
}
