package dev.codeinterp.server.session;

import java.time.Duration;

/**
 * How a session replaces a sandbox that died on its own: at most {@code maxRestarts} within
 * {@code window}, the first at once and each further one after a back-off that doubles from
 * {@code firstBackoff} up to {@code maxBackoff}. One more death within the window and the session
 * gives up until the user restarts the interpreter. The numbers are in docs/ARCHITECTURE.md.
 */
public record RestartPolicy(int maxRestarts, Duration window, Duration firstBackoff, Duration maxBackoff) {

    /**
     * Five restarts a minute: an interpreter a user's cells kill now and then (out of memory, say)
     * is always replaced; an image that dies right after it starts gives up within ~20 s
     * (at once, then 1, 2, 4 and 8 s apart) instead of restarting forever.
     */
    public static final RestartPolicy DEFAULT = new RestartPolicy(5, Duration.ofSeconds(60),
            Duration.ofSeconds(1), Duration.ofSeconds(8));

    public RestartPolicy {
        if (maxRestarts < 0 || window.isNegative() || firstBackoff.isNegative() || maxBackoff.compareTo(firstBackoff) < 0) {
            throw new IllegalArgumentException("not a restart policy: " + maxRestarts + " in " + window
                    + ", back-off " + firstBackoff + ".." + maxBackoff);
        }
    }

    /** The wait before the restart that follows the {@code nth} death within the window (1 = the first). */
    Duration backoff(int nth) {
        if (nth <= 1) {
            return Duration.ZERO;
        }
        Duration wait = firstBackoff;
        for (int i = 2; i < nth && wait.compareTo(maxBackoff) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
    }
}
