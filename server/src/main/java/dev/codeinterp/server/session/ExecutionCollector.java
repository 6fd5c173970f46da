package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.ExecuteResponse;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** Folds one execution's events into the single answer of the REST API. */
public final class ExecutionCollector implements Consumer<SessionEvent> {
    private final StringBuilder stdout = new StringBuilder();
    private final StringBuilder stderr = new StringBuilder();
    private final List<Map<String, Object>> results = new ArrayList<>();
    private final List<ExecuteResponse.Image> images = new ArrayList<>();
    private final CompletableFuture<ExecuteResponse> done = new CompletableFuture<>();
    private final long startedNanos = System.nanoTime();
    private volatile String executionId;
    private ExecuteResponse.ErrorInfo error;
    private final List<SessionEvent> early = new ArrayList<>();

    /** Events arriving before the id is known (subscribe happens before submit) are held back. */
    public synchronized void track(String id) {
        this.executionId = id;
        List<SessionEvent> held = new ArrayList<>(early);
        early.clear();
        held.forEach(this::accept);
    }

    public CompletableFuture<ExecuteResponse> result() {
        return done;
    }

    @Override
    public synchronized void accept(SessionEvent e) {
        if (executionId == null) {
            early.add(e);
            return;
        }
        if (!executionId.equals(e.executionId())) {
            return;
        }
        Event event = e.event();
        switch (event.type()) {
            case STREAM: {
                Event.Stream s = (Event.Stream) event;
                (s.name() == StreamName.STDERR ? stderr : stdout).append(s.text());
                break;
            }
            case DISPLAY_DATA:
                addBundle(((Event.DisplayData) event).data());
                break;
            case EXECUTE_RESULT:
                addBundle(((Event.ExecuteResult) event).data());
                break;
            case ERROR: {
                Event.Error err = (Event.Error) event;
                if (error == null) {
                    error = new ExecuteResponse.ErrorInfo(err.ename(), err.evalue(), String.join("\n", err.traceback()));
                }
                break;
            }
            case TRUNCATED:
                stderr.append("\n[output truncated at ").append(((Event.Truncated) event).limitBytes()).append(" bytes]\n");
                break;
            case FINISHED: {
                Event.Finished f = (Event.Finished) event;
                // wall time as the caller saw it, queueing included: never 0, even for a sub-millisecond cell
                double seconds = (System.nanoTime() - startedNanos) / 1e9;
                done.complete(new ExecuteResponse(f.status() == Status.OK, f.status(), stdout.toString(), stderr.toString(),
                        List.copyOf(results), List.copyOf(images), error, seconds, List.of()));
                break;
            }
            default:
                break;
        }
    }

    private void addBundle(Map<String, Object> data) {
        results.add(data);
        if (data.get("image/png") instanceof String png) {
            images.add(new ExecuteResponse.Image("png", png));
        }
    }
}
