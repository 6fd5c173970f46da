package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.rest.ExecuteResponse;
import dev.codeinterp.model.rest.ResultFold;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One execution's events, picked out of its session's stream and folded into the single answer of
 * the REST API; the folding rules are shared-model's {@link ResultFold} (the embed widget uses them too).
 * Each of them also goes, as it comes, to {@code progress} (MCP's progress notifications).
 */
final class ExecutionCollector implements Consumer<SessionEvent> {
    private final ResultFold fold = new ResultFold();
    private final Consumer<Event> progress;
    private final CompletableFuture<ExecuteResponse> done = new CompletableFuture<>();
    private final long startedNanos = System.nanoTime();
    private volatile String executionId;
    private final List<SessionEvent> early = new ArrayList<>();

    ExecutionCollector(Consumer<Event> progress) {
        this.progress = progress;
    }

    /** Events arriving before the id is known (subscribe happens before submit) are held back. */
    synchronized void track(String id) {
        this.executionId = id;
        List<SessionEvent> held = new ArrayList<>(early);
        early.clear();
        held.forEach(this::accept);
    }

    CompletableFuture<ExecuteResponse> result() {
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
        progress.accept(e.event());
        // wall time as the caller saw it, queueing included: never 0, even for a sub-millisecond cell
        ExecuteResponse answer = fold.add(e.event(), (System.nanoTime() - startedNanos) / 1e9);
        if (answer != null) {
            done.complete(answer);
        }
    }
}
