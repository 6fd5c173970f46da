package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.Limit;
import dev.codeinterp.model.Status;
import dev.codeinterp.server.files.Workspace;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A session's cells from acceptance to their one {@code finished}: how many are outstanding
 * (against the session's limit), those waiting in submission order, and the one running. Ending
 * a cell goes through here, so each ends exactly once, the running one with its artifacts first.
 * {@link #accept} is called by any thread; everything else by the session's worker.
 */
final class CellQueue {
    private final SessionEvents events;
    private final ArtifactTracker artifacts;
    private final int limit;
    private final Runnable onFinished;
    /** Cells accepted and not yet finished: accept counts up, each cell's one {@code finished} counts down. */
    private final AtomicInteger outstanding = new AtomicInteger();
    private final Deque<Signal.Submit> waiting = new ArrayDeque<>();
    private RunningCell running;

    /** {@code onFinished} runs after each cell's {@code finished} (the session counts it as activity). */
    CellQueue(SessionEvents events, ArtifactTracker artifacts, int limit, Runnable onFinished) {
        this.events = events;
        this.artifacts = artifacts;
        this.limit = limit;
        this.onFinished = onFinished;
    }

    /**
     * Stores a new cell's {@code queued} event and returns its execution id; refused, with nothing
     * stored, when the session already holds its limit of waiting and running cells.
     */
    String accept(String code, Language language) {
        if (outstanding.incrementAndGet() > limit) {
            outstanding.decrementAndGet();
            throw new LimitExceededException(Limit.QUEUED_CELLS, Admission.RETRY_QUEUED_S, "this session already has " + limit
                    + " cells waiting or running, its limit; wait for one to finish");
        }
        String executionId = Tokens.newId();
        try {
            events.emitOrRefuse(executionId, new Event.Queued(code, language));
        } catch (RuntimeException e) {
            outstanding.decrementAndGet();
            throw e;
        }
        return executionId;
    }

    /** An accepted cell reached the worker: it waits its turn. */
    void enqueue(Signal.Submit cell) {
        waiting.addLast(cell);
    }

    /** Nothing runs and a cell waits. */
    boolean readyForNext() {
        return running == null && !waiting.isEmpty();
    }

    boolean busy() {
        return running != null || !waiting.isEmpty();
    }

    Signal.Submit takeNext() {
        return waiting.pollFirst();
    }

    /** {@code cell} runs now; {@code workspace} is stamped to find its artifacts later. */
    void started(RunningCell cell, Workspace workspace) {
        running = cell;
        artifacts.beforeCell(workspace);
    }

    /**
     * A cell that an earlier server process started and that goes on running in the sandbox this
     * session adopted: it runs now (its {@code started} is already stored).
     */
    void adoptRunning(RunningCell cell, Workspace workspace) {
        outstanding.incrementAndGet();
        started(cell, workspace);
    }

    /** A cell an earlier server process accepted and never ran: it ends now, saying {@code why}. */
    void abandon(String executionId, Event why) {
        outstanding.incrementAndGet();
        events.emit(executionId, why);
        finishUnstarted(executionId, Status.INTERRUPTED);
    }

    /** The cell running, or null. */
    RunningCell running() {
        return running;
    }

    /** The running cell's id, or {@link Session#NO_EXECUTION} for events of an idle session. */
    String runningIdOrNone() {
        return running != null ? running.executionId() : Session.NO_EXECUTION;
    }

    /** Ends the running cell: its artifacts in {@code workspace}, then its {@code finished}. */
    void finishRunning(Event.Finished finished, Workspace workspace) {
        String executionId = running.executionId();
        for (Event.Artifact artifact : artifacts.afterCell(workspace)) {
            events.emit(executionId, artifact);
        }
        finished(executionId, finished);
        running = null;
    }

    /** Ends the running cell, stopped by the session, with {@code status} and the time it ran. */
    void finishRunning(Status status, Workspace workspace) {
        finishRunning(new Event.Finished(status, null, running.elapsedMs(System.nanoTime()), null, null), workspace);
    }

    /** Ends a cell that never ran (taken from the queue, or never queued at all) with {@code status}. */
    void finishUnstarted(String executionId, Status status) {
        finished(executionId, new Event.Finished(status, null, 0L, null, null));
    }

    /** The session is closing: every cell still open, {@code unread} ones included, ends as interrupted. */
    void interruptAll(Collection<Signal.Submit> unread, Workspace workspace) {
        if (running != null) {
            finishRunning(Status.INTERRUPTED, workspace);
        }
        Signal.Submit cell;
        while ((cell = waiting.pollFirst()) != null) {
            finishUnstarted(cell.executionId(), Status.INTERRUPTED);
        }
        for (Signal.Submit s : unread) {
            finishUnstarted(s.executionId(), Status.INTERRUPTED);
        }
    }

    private void finished(String executionId, Event.Finished finished) {
        events.emit(executionId, finished);
        outstanding.decrementAndGet();
        onFinished.run();
    }
}
