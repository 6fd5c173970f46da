package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.sandbox.Sandbox;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One conversation's interpreter, as its callers see it. A single worker thread ({@link SessionWorker})
 * owns all state and reacts to signals in its inbox (cells submitted, runner output, the sandbox
 * dying, interrupt, restart, close, the clock), so there are no races between a cell finishing and a
 * timeout firing. Cells run one at a time in submission order, and every cell ends with exactly one
 * {@code finished} event. What is done with it once idle (suspended, moved, copied) is an
 * {@link IdleWork}. The
 * policies live apart: {@link RunningCell} (output cap, {@link ShutdownLadder}), {@link Supervisor}
 * (restarts), {@link CrashReport} (what a death means to the user), {@link ArtifactTracker}.
 */
public final class Session {
    /** Events that belong to no cell (a restart while idle) carry this execution id. */
    public static final String NO_EXECUTION = "";

    private final String id;
    private final String runtime;
    private final SessionEvents events;
    private final InstallStep installs;
    private final SessionWorker worker;
    private volatile long lastActivity = System.currentTimeMillis();

    /**
     * {@code workspace} is the session's existing workspace, or null for a new session, which
     * adopts its first sandbox's (and reports it to {@code workspaceAdopted}, to be remembered);
     * {@code sandboxTaken} hears of every sandbox the session takes.
     */
    Session(String id, String runtime, SessionEvents events, SandboxSource sandboxes, Workspace workspace,
            Consumer<Workspace> workspaceAdopted, Consumer<Sandbox> sandboxTaken, ExecutionLimits limits, FileLinks links,
            InstallStep installs) {
        this.id = id;
        this.runtime = runtime;
        this.events = events;
        this.installs = installs;
        this.worker = new SessionWorker(id, events, sandboxes, workspace, workspaceAdopted, sandboxTaken, limits, links, installs,
                this::touch);
    }

    public String id() {
        return id;
    }

    public String runtime() {
        return runtime;
    }

    /**
     * Starts the worker; with {@code warm}, takes a sandbox now so the first cell does not wait.
     * A session is busy while it starts and its idle clock starts when it is ready: the reaper
     * must not close it during a cold start that takes longer than the idle TTL.
     */
    public void start(boolean warm) {
        worker.start(warm, this::touch);
    }

    /**
     * Before {@link #start}: the session goes on in {@code running}, the sandbox an earlier server
     * process left, with the cell {@code runningCell} (or null) still running in it under a fresh
     * clock of {@code timeout}; the cells it had {@code waiting} end, as they never ran.
     */
    public void adopt(Sandbox running, String runningCell, Duration timeout, List<String> waiting) {
        worker.adopt(running, runningCell, timeout, waiting);
    }

    /**
     * Before {@link #start}: the interpreter of an earlier server process is gone ({@code why}); the
     * next cell's events say so with a {@code restarted} event, as its variables are gone with it.
     */
    public void interpreterLost(String why) {
        worker.interpreterLost(why);
    }

    /** The session came back from disk with its interpreter, in {@code ms}: its stream says so. */
    public void resumed(long ms) {
        events.emit(NO_EXECUTION, new Event.Resumed(ms));
    }

    // ---- what callers may do ---------------------------------------------------------------

    /** The session's files; null only before a new session's first sandbox. */
    public Workspace workspace() {
        return worker.workspace();
    }

    /**
     * Queues a cell; its {@code queued} event is stored before this returns. Refused, with nothing
     * stored, when the session already holds its limit of waiting and running cells, or (a
     * {@code PackageRefusedException}) when the cell asks for a package it may not have.
     */
    public String submit(Cell cell) {
        var request = installs.check(cell.language(), cell.packages());
        return worker.accept(cell, request);
    }

    /**
     * Records an event of an assistant turn ({@code prompt} … {@code assistant_done}) in this
     * session's one log under {@code turnId}; cell events come only from cells.
     */
    public void recordTurnEvent(String turnId, Event event) {
        switch (event.type()) {
            case PROMPT, ASSISTANT_TEXT, TOOL_CALL, TOOL_RESULT, ASSISTANT_DONE -> {
            }
            default -> throw new IllegalArgumentException("not an assistant turn event: " + event.type().wire());
        }
        touch();
        events.emit(turnId, event);
    }

    public void interrupt() {
        touch();
        worker.post(new Signal.InterruptRequest());
    }

    /** A person's answer to the running cell's {@code input()}; refused when no cell waits for one. */
    public void reply(String value) {
        if (!worker.awaitingInput()) {
            throw new NoInputPendingException();
        }
        touch();
        worker.post(new Signal.InputReply(value));
    }

    public void restart() {
        touch();
        worker.post(new Signal.RestartRequest("restart requested"));
    }

    public long subscribe(long afterSeq, Consumer<SessionEvent> listener) {
        touch();
        return events.subscribe(afterSeq, listener);
    }

    public void unsubscribe(Consumer<SessionEvent> listener) {
        events.unsubscribe(listener);
    }

    public long lastSeq() {
        return events.lastSeq();
    }

    public boolean busy() {
        return worker.busy();
    }

    public long lastActivity() {
        return lastActivity;
    }

    public boolean closed() {
        return worker.closed();
    }

    public void touch() {
        lastActivity = System.currentTimeMillis();
    }

    /**
     * Once no cell waits or runs, hands the sandbox and the workspace to {@code work}, which writes
     * them to disk, and stops the worker: the session is then closed to callers. Returns what
     * {@code work} answered. Fails with {@link SessionBusyException} when a cell waits or runs; when
     * {@code work} fails, the session goes on as it was (or, if its sandbox did not survive, with a
     * fresh one that says so).
     */
    public <T> T suspend(IdleWork<T> work) {
        return whenIdle(work, handOff -> new Signal.SuspendRequest(handOff, false), "suspended");
    }

    /**
     * As {@link #suspend}, for a session that moves to another node: from now on it takes no new cell
     * (callers see it closed, and look for it again), the cells it accepted run to their end, then
     * {@code work} writes it to disk. When {@code work} fails, it goes on as it was.
     */
    public <T> T leave(IdleWork<T> work) {
        return whenIdle(work, handOff -> new Signal.SuspendRequest(handOff, true), "moved");
    }

    /**
     * Once no cell waits or runs, hands the live sandbox and the workspace to {@code work}, which
     * copies them (a fork), while cells sent meanwhile wait; then the session goes on as it was.
     * Fails with {@link SessionBusyException} when a cell waits or runs.
     */
    public <T> T copy(IdleWork<T> work) {
        return whenIdle(work, handOff -> new Signal.CopyRequest(handOff), "copied");
    }

    /** Hands {@code work} to the worker as the signal {@code request} makes, and waits for what it answers. */
    private <T> T whenIdle(IdleWork<T> work, Function<IdleHandOff<T>, Signal> request, String what) {
        IdleHandOff<T> handOff = new IdleHandOff<>(work);
        worker.whenIdle(handOff, request.apply(handOff));
        return handOff.await(what);
    }

    /** Stops the worker, ends every unfinished cell as interrupted, and removes the sandbox. */
    public void close() {
        worker.stop(new Signal.CloseRequest());
    }

    /**
     * Stops the worker and leaves the sandbox running with its variables, and any cell in it, for the
     * next server process to adopt: nothing ends, nothing is stored as ended.
     */
    public void detach() {
        worker.stop(new Signal.DetachRequest());
    }

    /** Stops the worker and removes the sandbox, storing nothing: the session is not this node's any more. */
    public void drop() {
        worker.stop(new Signal.DropRequest());
    }
}
