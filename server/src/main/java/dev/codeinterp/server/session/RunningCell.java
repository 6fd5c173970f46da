package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.EventType;

import java.time.Duration;
import java.util.List;

/**
 * The cell in flight: which one it is, its budget, its shutdown ladder and its wait for a person's
 * input. A cell with packages first runs under the install bound; the runner's {@code install}
 * event starts the cell's own clock, so installing never eats into its timeout.
 */
final class RunningCell {
    private final String executionId;
    private final Duration timeout;
    private final ExecutionLimits limits;
    private final InputWait input;
    private CellBudget budget;
    private ShutdownLadder ladder;
    private boolean installing;
    private InputWait packages; // a %pip install in flight: fetched by the server, then installed by the runner
    private long packageRequests;

    RunningCell(String executionId, Duration timeout, ExecutionLimits limits, long now) {
        this(executionId, timeout, limits, now, null);
    }

    /** {@code installBound}: the cell installs packages first, for at most this long (null: it does not). */
    RunningCell(String executionId, Duration timeout, ExecutionLimits limits, long now, Duration installBound) {
        this.executionId = executionId;
        this.timeout = timeout;
        this.limits = limits;
        this.input = new InputWait(limits.inputTimeout());
        this.installing = installBound != null;
        this.budget = new CellBudget(installing ? installBound : timeout, limits.outputCapBytes(), now);
        this.ladder = installing ? new ShutdownLadder(budget, limits.interruptGrace(), "installing the packages")
                : new ShutdownLadder(budget, limits.interruptGrace());
    }

    /** The next moment the cell needs the clock: the end of a person's time to answer, or the ladder's. */
    long nextDeadline() {
        if (pausedForPackages()) {
            return packages.deadline();
        }
        return pausedForInput() ? input.deadline() : ladder.nextDeadline();
    }

    /** What to do now that the clock reached {@link #nextDeadline()}. */
    ShutdownLadder.Step onClock(long now) {
        if (pausedForPackages()) {
            if (now < packages.deadline()) {
                return ShutdownLadder.Step.WAIT;
            }
            packages.end(now);
            ladder.packagesTimedOut(now, packages.limit());
            return ShutdownLadder.Step.INTERRUPT;
        }
        if (!pausedForInput()) {
            return ladder.onClock(now);
        }
        if (now < input.deadline()) {
            return ShutdownLadder.Step.WAIT;
        }
        input.end(now);
        ladder.inputTimedOut(now, input.limit());
        return ShutdownLadder.Step.INTERRUPT;
    }

    /** The user asked to interrupt (which also cancels a wait for input): true when the interrupt is to go out now. */
    boolean interruptRequested(long now) {
        ladder.paused(input.end(now));
        endPackagesWait(now);
        return ladder.interruptRequested(now);
    }

    /** Whether the cell waits for the person's answer to its {@code input()}. */
    boolean awaitingInput() {
        return input.waiting();
    }

    /** The person answered: true (and the cell's clock runs again) when the cell was waiting for it. */
    boolean answered(long now) {
        if (!input.waiting()) {
            return false;
        }
        ladder.paused(input.end(now));
        return true;
    }

    /**
     * The cell asked for packages ({@code %pip install}): its clock stands still, for at most
     * {@code bound}, until the runner's next event for it (the {@code install}, or the error it raised).
     * Returns the request's number, which its answer must carry; -1 when the cell is already being stopped.
     * A request still open is superseded (the runner stopped waiting for it without telling us).
     */
    long packagesRequested(long now, Duration bound) {
        if (ladder.stopping()) {
            return -1;
        }
        endPackagesWait(now);
        packages = new InputWait(bound);
        packages.begin(now);
        return ++packageRequests;
    }

    /** Whether {@code request} is the install this cell still waits for (not one an interrupt or timeout ended). */
    boolean awaitingPackages(long request) {
        return packages != null && packages.waiting() && request == packageRequests;
    }

    private boolean endPackagesWait(long now) {
        if (packages == null || !packages.waiting()) {
            return false;
        }
        ladder.paused(packages.end(now));
        return true;
    }

    private boolean pausedForPackages() {
        return packages != null && packages.waiting() && !ladder.stopping();
    }

    private boolean pausedForInput() {
        return input.waiting() && !ladder.stopping();
    }

    String executionId() {
        return executionId;
    }

    ShutdownLadder ladder() {
        return ladder;
    }

    long elapsedMs(long now) {
        return budget.elapsedMs(now);
    }

    /**
     * What the user sees of one of the runner's events for this cell: stream text within the
     * output cap, errors and the end relabelled after a timeout; nothing of what only the server may say.
     */
    List<Event> fromRunner(Event event, long now) {
        if (endPackagesWait(now) && event.type() == EventType.INSTALL) {
            return List.of(event); // the runner installed what the cell's %pip asked for
        }
        return switch (event.type()) {
            case STARTED, DISPLAY_DATA, EXECUTE_RESULT, UPDATE_DISPLAY_DATA, CLEAR_OUTPUT -> List.of(event);
            case INSTALL -> installed(event, now);
            case STREAM -> budget.admit((Event.Stream) event);
            case TRUNCATED -> budget.truncatedByRunner();
            case INPUT_REQUEST -> {
                if (!ladder.stopping()) { // once interrupted, nobody may answer: the grace period runs on
                    input.begin(now);
                }
                yield List.of(event);
            }
            case ERROR -> List.of(ladder.relabel((Event.Error) event));
            case FINISHED -> {
                Event.Finished f = (Event.Finished) event;
                yield List.of(new Event.Finished(ladder.relabel(f.status()), f.executionCount(), f.durationMs(),
                        f.cpuMs(), f.peakMemoryKb()));
            }
            // queued, restarted and artifact are the server's to say, not the runner's
            default -> List.of();
        };
    }

    /** The packages are in: the cell's own clock starts now, unless the install was already being stopped. */
    private List<Event> installed(Event event, long now) {
        if (!installing) {
            return List.of(); // only one install, and only when the server asked for it
        }
        installing = false;
        if (!ladder.interruptSentAlready()) {
            budget = new CellBudget(timeout, limits.outputCapBytes(), now);
            ladder = new ShutdownLadder(budget, limits.interruptGrace());
        }
        return List.of(event);
    }
}
