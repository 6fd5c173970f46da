package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;

import java.time.Duration;
import java.util.List;

/** The cell in flight: which one it is, its budget, its shutdown ladder and its wait for a person's input. */
final class RunningCell {
    private final String executionId;
    private final CellBudget budget;
    private final ShutdownLadder ladder;
    private final InputWait input;

    RunningCell(String executionId, Duration timeout, ExecutionLimits limits, long now) {
        this.executionId = executionId;
        this.budget = new CellBudget(timeout, limits.outputCapBytes(), now);
        this.ladder = new ShutdownLadder(budget, limits.interruptGrace());
        this.input = new InputWait(limits.inputTimeout());
    }

    /** The next moment the cell needs the clock: the end of a person's time to answer, or the ladder's. */
    long nextDeadline() {
        return pausedForInput() ? input.deadline() : ladder.nextDeadline();
    }

    /** What to do now that the clock reached {@link #nextDeadline()}. */
    ShutdownLadder.Step onClock(long now) {
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
        return switch (event.type()) {
            case STARTED, DISPLAY_DATA, EXECUTE_RESULT, UPDATE_DISPLAY_DATA, CLEAR_OUTPUT -> List.of(event);
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
}
