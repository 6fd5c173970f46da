package dev.codeinterp.server.session;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Supervision of a session's sandbox, apart from the mechanism of replacing it: counts the deaths
 * the session did not cause (a sandbox the session replaced itself, after a timeout or on request,
 * is no crash), says when the next fresh sandbox may start, and gives up per {@link RestartPolicy}.
 * Owned by the session's worker thread; times are {@link System#nanoTime()}.
 */
final class Supervisor {
    /** No restart is scheduled. */
    static final long NEVER = Long.MAX_VALUE;

    private final RestartPolicy policy;
    private final Deque<Long> deaths = new ArrayDeque<>();
    private long restartAt = NEVER;
    private boolean gaveUp;

    Supervisor(RestartPolicy policy) {
        this.policy = policy;
    }

    /**
     * A sandbox died on its own. True when a fresh one is to follow, at {@link #restartAt()};
     * false when this death was one too many and the session gives up.
     */
    boolean died(long now) {
        long windowNanos = policy.window().toNanos();
        while (!deaths.isEmpty() && now - deaths.peekFirst() > windowNanos) {
            deaths.pollFirst();
        }
        deaths.addLast(now);
        if (deaths.size() > policy.maxRestarts()) {
            gaveUp = true;
            restartAt = NEVER;
            return false;
        }
        restartAt = now + policy.backoff(deaths.size()).toNanos();
        return true;
    }

    /** When the scheduled restart is due, or {@link #NEVER}. */
    long restartAt() {
        return restartAt;
    }

    /** A restart is scheduled and not due yet: cells wait for it rather than start a sandbox early. */
    boolean backingOff(long now) {
        return restartAt != NEVER && now < restartAt;
    }

    /** Takes the scheduled restart if it is due: true means start a fresh sandbox now. */
    boolean takeDueRestart(long now) {
        if (restartAt == NEVER || now < restartAt) {
            return false;
        }
        restartAt = NEVER;
        return true;
    }

    boolean gaveUp() {
        return gaveUp;
    }

    /** Why the session stopped restarting, in words for the user. */
    String whyGaveUp() {
        return "it stopped " + deaths.size() + " times within " + Durations.words(policy.window())
                + ", so the session stopped restarting it";
    }

    /** The user restarted the interpreter: a clean slate. */
    void reset() {
        deaths.clear();
        restartAt = NEVER;
        gaveUp = false;
    }
}
