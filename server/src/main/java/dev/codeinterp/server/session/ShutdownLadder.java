package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Status;

import java.time.Duration;
import java.util.List;

/**
 * How a running cell is stopped: at its timeout an interrupt, then a grace period, then the
 * interpreter is restarted. A user's interrupt enters the same ladder at the grace period. The
 * ladder decides the steps and when, and what the user is told; the session performs them.
 */
final class ShutdownLadder {
    /** What the session does when the clock reaches {@link #nextDeadline()}. */
    enum Step {
        /** Nothing is due (an early wake-up). */
        WAIT,
        /** Send the runner an interrupt: the timeout passed. */
        INTERRUPT,
        /** The grace period passed with the cell still running: replace the interpreter. */
        RESTART
    }

    private long timeoutAt;
    private final Duration timeout;
    private final Duration grace;
    private final String what;
    private long graceEndsAt = Long.MAX_VALUE;
    private boolean interruptSent;
    private boolean timedOut;
    private String timeoutWhy;

    ShutdownLadder(CellBudget budget, Duration grace) {
        this(budget, grace, null);
    }

    /** {@code what} names the phase the timeout bounds when it is not the cell's code (e.g. installing its packages). */
    ShutdownLadder(CellBudget budget, Duration grace, String what) {
        this.timeoutAt = budget.timeoutAt();
        this.timeout = budget.timeout();
        this.grace = grace;
        this.what = what;
    }

    boolean interruptSentAlready() {
        return interruptSent;
    }

    /** The next moment the ladder needs the clock: the timeout, or once interrupted the end of the grace. */
    long nextDeadline() {
        return interruptSent ? graceEndsAt : timeoutAt;
    }

    /** The user asked to interrupt: true when the interrupt is to go out now (not when one already did). */
    boolean interruptRequested(long now) {
        if (interruptSent) {
            return false;
        }
        interrupted(now);
        return true;
    }

    Step onClock(long now) {
        if (!interruptSent && now >= timeoutAt) {
            timedOut = true;
            interrupted(now);
            return Step.INTERRUPT;
        }
        if (interruptSent && now >= graceEndsAt) {
            return Step.RESTART;
        }
        return Step.WAIT;
    }

    private void interrupted(long now) {
        interruptSent = true;
        graceEndsAt = now + grace.toNanos();
    }

    /** Whether an interrupt went out (the user's or the timeout's): the grace period runs. */
    boolean stopping() {
        return interruptSent;
    }

    /** The cell waited {@code nanos} for a person: its timeout falls that much later. */
    void paused(long nanos) {
        if (!interruptSent) {
            timeoutAt += nanos;
        }
    }

    /** Nobody answered the cell's {@code input()} within {@code limit}: it is stopped as timed out, saying why. */
    void inputTimedOut(long now, Duration limit) {
        timedOut = true;
        timeoutWhy = "nobody answered the cell's input() within " + Durations.words(limit)
                + " (CODEINTERP_INPUT_TIMEOUT), so it was interrupted";
        interrupted(now);
    }

    /** A cell's {@code %pip install} was not fetched and installed within {@code limit}: it is stopped as timed out. */
    void packagesTimedOut(long now, Duration limit) {
        timedOut = true;
        timeoutWhy = "the cell's %pip install took longer than " + Durations.words(limit) + ", so the cell was interrupted";
        interrupted(now);
    }

    boolean timedOut() {
        return timedOut;
    }

    /** The runner's error as the user sees it: the KeyboardInterrupt our timeout caused is a TimeoutError. */
    Event.Error relabel(Event.Error error) {
        return timedOut && "KeyboardInterrupt".equals(error.ename()) ? timeoutError() : error;
    }

    /** The runner's status as the user sees it: a cell that timed out ended by timeout, however it stopped. */
    Status relabel(Status status) {
        return timedOut ? Status.TIMEOUT : status;
    }

    Event.Error timeoutError() {
        if (what != null) {
            return new Event.Error("TimeoutError", what + " took longer than " + Durations.words(timeout)
                    + ", so it was stopped and the cell did not run", List.of());
        }
        return new Event.Error("TimeoutError", timeoutWhy != null ? timeoutWhy : "the cell ran longer than its timeout of "
                + Durations.words(timeout) + " and was interrupted", List.of());
    }

    /** Why the interpreter was replaced at the last rung. */
    String restartReason() {
        return "the cell did not stop within " + Durations.words(grace)
                + " of being interrupted, so the interpreter was restarted";
    }

    /** How a cell ended at the last rung: by its timeout, or by the user's interrupt. */
    Status restartedStatus() {
        return timedOut ? Status.TIMEOUT : Status.INTERRUPTED;
    }
}
