package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;

import java.time.Duration;
import java.util.List;

/** The cell in flight: which one it is, its budget and its shutdown ladder. */
final class RunningCell {
    private final String executionId;
    private final CellBudget budget;
    private final ShutdownLadder ladder;

    RunningCell(String executionId, Duration timeout, ExecutionLimits limits, long now) {
        this.executionId = executionId;
        this.budget = new CellBudget(timeout, limits.outputCapBytes(), now);
        this.ladder = new ShutdownLadder(budget, limits.interruptGrace());
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
    List<Event> fromRunner(Event event) {
        return switch (event.type()) {
            case STARTED, DISPLAY_DATA, EXECUTE_RESULT, UPDATE_DISPLAY_DATA, CLEAR_OUTPUT -> List.of(event);
            case STREAM -> budget.admit((Event.Stream) event);
            case TRUNCATED -> budget.truncatedByRunner();
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
