package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Limit;
import dev.codeinterp.model.RunnerMessage;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.model.WireCodec;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.files.WorkspaceException;
import dev.codeinterp.server.files.WorkspaceFile;
import dev.codeinterp.server.sandbox.Sandbox;
import dev.codeinterp.server.sandbox.SandboxException;
import dev.codeinterp.server.sandbox.SandboxExit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One conversation's interpreter. A single worker thread owns all state and reacts to signals in
 * its inbox (cells submitted, runner output, the sandbox dying, interrupt, restart, close), so
 * there are no races between a cell finishing and a timeout firing. Cells run one at a time in
 * submission order, and every cell ends with exactly one {@code finished} event.
 */
public final class Session {
    private static final Logger log = LoggerFactory.getLogger(Session.class);
    /** Events that belong to no cell (a restart while idle) carry this execution id. */
    public static final String NO_EXECUTION = "";

    private sealed interface Signal {
    }

    private record Submit(String executionId, String code, Duration timeout) implements Signal {
    }

    private record Output(Sandbox source, RunnerMessage message) implements Signal {
    }

    private record Exited(Sandbox source) implements Signal {
    }

    private record InterruptRequest() implements Signal {
    }

    private record RestartRequest(String reason) implements Signal {
    }

    private record CloseRequest() implements Signal {
    }

    /** The cell in flight and its clocks. */
    private static final class Running {
        final Submit cell;
        final long deadline;
        long graceDeadline = Long.MAX_VALUE;
        boolean interruptSent;
        boolean timedOut;
        boolean truncated;
        long outputBytes;
        Map<String, Workspace.Stamp> filesBefore = Map.of();

        Running(Submit cell) {
            this.cell = cell;
            this.deadline = System.nanoTime() + cell.timeout().toNanos();
        }
    }

    private final String id;
    private final String runtime;
    private final SessionEvents events;
    private final SandboxSource sandboxes;
    private final Consumer<Workspace> workspaceAdopted;
    private volatile Workspace workspace;
    private final ExecutionLimits limits;
    private final BlockingQueue<Signal> inbox = new LinkedBlockingQueue<>();
    private final Deque<Submit> pending = new ArrayDeque<>();
    /** Cells accepted and not yet finished: submit counts up, each cell's one {@code finished} counts down. */
    private final AtomicInteger outstanding = new AtomicInteger();
    private final Thread worker;
    private Sandbox sandbox;
    private Running current;
    private volatile boolean busy;
    private volatile boolean closed;
    private volatile long lastActivity = System.currentTimeMillis();

    /**
     * {@code workspace} is the session's existing workspace, or null for a new session, which
     * adopts its first sandbox's (and reports it to {@code workspaceAdopted}, to be remembered).
     */
    Session(String id, String runtime, SessionEvents events, SandboxSource sandboxes, Workspace workspace,
            Consumer<Workspace> workspaceAdopted, ExecutionLimits limits) {
        this.id = id;
        this.runtime = runtime;
        this.events = events;
        this.sandboxes = sandboxes;
        this.workspace = workspace;
        this.workspaceAdopted = workspaceAdopted;
        this.limits = limits;
        this.worker = new Thread(this::work, "session-" + id.substring(0, Math.min(8, id.length())));
        this.worker.setDaemon(true);
    }

    public String id() {
        return id;
    }

    public String runtime() {
        return runtime;
    }

    /** Starts the worker; with {@code warm}, takes a sandbox now so the first cell does not wait. */
    void start(boolean warm) {
        if (warm) {
            ensureSandbox();
        }
        worker.start();
    }

    // ---- what callers may do ---------------------------------------------------------------

    /** The session's files; null only before a new session's first sandbox. */
    public Workspace workspace() {
        return workspace;
    }

    /**
     * Queues a cell; its {@code queued} event is stored before this returns. Refused, with nothing
     * stored, when the session already holds its limit of waiting and running cells.
     */
    public String submit(String code, Duration timeout) {
        if (closed) {
            throw new SessionClosedException();
        }
        if (outstanding.incrementAndGet() > limits.maxQueuedCells()) {
            outstanding.decrementAndGet();
            throw new LimitExceededException(Limit.QUEUED_CELLS, Admission.RETRY_QUEUED_S, "this session already has " + limits.maxQueuedCells()
                    + " cells waiting or running, its limit; wait for one to finish");
        }
        String executionId = Tokens.newId();
        try {
            events.emit(executionId, new Event.Queued(code));
        } catch (RuntimeException e) {
            outstanding.decrementAndGet();
            throw e;
        }
        busy = true;
        touch();
        inbox.add(new Submit(executionId, code, timeout));
        return executionId;
    }

    public void interrupt() {
        touch();
        inbox.add(new InterruptRequest());
    }

    public void restart() {
        touch();
        inbox.add(new RestartRequest("restart requested"));
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
        return busy;
    }

    public long lastActivity() {
        return lastActivity;
    }

    public boolean closed() {
        return closed;
    }

    public void touch() {
        lastActivity = System.currentTimeMillis();
    }

    /** Stops the worker, ends every unfinished cell as interrupted, and removes the sandbox. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        inbox.add(new CloseRequest());
        try {
            worker.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!worker.isAlive()) {
            discardSandbox(); // a worker that never started still holds its warm sandbox
        } else {
            log.warn("session {} worker did not stop within 10 s", id);
        }
    }

    // ---- the worker ------------------------------------------------------------------------

    private void work() {
        try {
            while (true) {
                if (current == null && !pending.isEmpty()) {
                    startNext();
                    continue;
                }
                busy = current != null || !pending.isEmpty();
                Signal signal = current == null ? inbox.take() : inbox.poll(nanosToNextDeadline(), TimeUnit.NANOSECONDS);
                if (signal == null) {
                    onDeadline();
                } else if (signal instanceof Submit s) {
                    pending.addLast(s);
                } else if (signal instanceof Output o) {
                    if (o.source() == sandbox) {
                        onRunnerMessage(o.message());
                    }
                } else if (signal instanceof Exited x) {
                    if (x.source() == sandbox) {
                        onSandboxDied();
                    }
                } else if (signal instanceof InterruptRequest) {
                    if (current != null && !current.interruptSent) {
                        beginInterrupt();
                    }
                } else if (signal instanceof RestartRequest r) {
                    restartInterpreter(r.reason());
                } else if (signal instanceof CloseRequest) {
                    shutDown();
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("session {} worker failed", id, e);
            shutDown();
        } finally {
            busy = false;
        }
    }

    private void startNext() {
        Submit cell = pending.pollFirst();
        try {
            ensureSandbox();
        } catch (SandboxException e) {
            events.emit(cell.executionId(), new Event.Error("SandboxUnavailable", e.getMessage(), List.of()));
            finish(cell.executionId(), new Event.Finished(Status.ERROR, null, 0L, null, null));
            return;
        }
        current = new Running(cell);
        current.filesBefore = snapshotQuietly();
        sandbox.send(WireCodec.encodeRunnerExecute(cell.executionId(), cell.code(), limits.outputCapBytes()));
    }

    private void ensureSandbox() {
        if (sandbox != null && sandbox.alive()) {
            return;
        }
        if (sandbox != null) {
            discardSandbox();
        }
        Workspace mine = workspace;
        Sandbox fresh = mine == null ? sandboxes.fresh() : sandboxes.on(mine);
        if (mine == null) {
            workspace = fresh.workspace();
            workspaceAdopted.accept(fresh.workspace());
        }
        sandbox = fresh;
        fresh.onOutput(m -> inbox.add(new Output(fresh, m)), () -> inbox.add(new Exited(fresh)));
    }

    private void onRunnerMessage(RunnerMessage message) {
        if (message instanceof RunnerMessage.ProtocolError p) {
            if (current != null) {
                events.emit(current.cell.executionId(), new Event.Stream(StreamName.STDERR, "[codeinterp] " + p.message() + "\n"));
            }
            return;
        }
        if (!(message instanceof RunnerMessage.CellEvent ce) || current == null
                || !ce.executionId().equals(current.cell.executionId())) {
            return; // late output of a cell already ended, or a runner announcing itself again
        }
        Event event = ce.event();
        String executionId = current.cell.executionId();
        switch (event.type()) {
            case STARTED:
                events.emit(executionId, event);
                break;
            case STREAM:
                emitCapped(executionId, (Event.Stream) event);
                break;
            case TRUNCATED:
                markTruncated(executionId);
                break;
            case ERROR:
                Event.Error error = (Event.Error) event;
                if (current.timedOut && "KeyboardInterrupt".equals(error.ename())) {
                    events.emit(executionId, timeoutError());
                } else {
                    events.emit(executionId, event);
                }
                break;
            case FINISHED:
                Event.Finished f = (Event.Finished) event;
                Status status = current.timedOut ? Status.TIMEOUT : f.status();
                finish(executionId, new Event.Finished(status, f.executionCount(), f.durationMs(), f.cpuMs(), f.peakMemoryKb()));
                break;
            case DISPLAY_DATA:
            case EXECUTE_RESULT:
                events.emit(executionId, event);
                break;
            default:
                // queued, restarted and artifact are the server's to say, not the runner's
                break;
        }
    }

    /** The server's own output cap, whatever the runner claims: text past it is dropped. */
    private void emitCapped(String executionId, Event.Stream stream) {
        if (current.truncated) {
            return;
        }
        long cap = limits.outputCapBytes();
        byte[] utf8 = stream.text().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (current.outputBytes + utf8.length <= cap) {
            current.outputBytes += utf8.length;
            events.emit(executionId, stream);
            return;
        }
        int room = (int) (cap - current.outputBytes);
        if (room > 0) {
            String head = new String(utf8, 0, room, java.nio.charset.StandardCharsets.UTF_8);
            events.emit(executionId, new Event.Stream(stream.name(), head));
        }
        current.outputBytes = cap;
        markTruncated(executionId);
    }

    private void markTruncated(String executionId) {
        if (!current.truncated) {
            current.truncated = true;
            events.emit(executionId, new Event.Truncated(limits.outputCapBytes()));
        }
    }

    private Event.Error timeoutError() {
        return new Event.Error("TimeoutError", "the cell ran longer than its timeout of "
                + formatSeconds(current.cell.timeout()) + " and was interrupted", List.of());
    }

    private long nanosToNextDeadline() {
        long next = current.interruptSent ? current.graceDeadline : current.deadline;
        return Math.max(0, next - System.nanoTime());
    }

    /** The shutdown ladder's clock: at the timeout interrupt; past the grace period restart. */
    private void onDeadline() {
        long now = System.nanoTime();
        if (!current.interruptSent && now >= current.deadline) {
            current.timedOut = true;
            beginInterrupt();
        } else if (current.interruptSent && now >= current.graceDeadline) {
            String executionId = current.cell.executionId();
            boolean timedOut = current.timedOut;
            if (timedOut) {
                events.emit(executionId, timeoutError());
            }
            discardSandbox();
            String reason = "the cell did not stop within " + formatSeconds(limits.interruptGrace())
                    + " of being interrupted, so the interpreter was restarted";
            events.emit(executionId, new Event.Restarted(reason));
            finish(executionId, new Event.Finished(timedOut ? Status.TIMEOUT : Status.INTERRUPTED, null,
                    elapsedMs(), null, null));
            warmQuietly();
        }
    }

    private void beginInterrupt() {
        current.interruptSent = true;
        current.graceDeadline = System.nanoTime() + limits.interruptGrace().toNanos();
        sandbox.send(WireCodec.encodeRunnerCommand("interrupt"));
    }

    private void onSandboxDied() {
        SandboxExit exit = sandbox.diagnose();
        discardSandbox();
        String reason = exit.describe();
        if (current != null) {
            String executionId = current.cell.executionId();
            // only the engine's OOMKilled says out of memory: exit 137 alone is also `docker kill` or an outside SIGKILL
            boolean oom = exit.oomKilled();
            if (oom) {
                events.emit(executionId, new Event.Error("MemoryError", "the cell used more than the sandbox's "
                        + (limits.memoryBytes() >> 20) + " MiB of memory; the interpreter was restarted", List.of()));
                reason = "the interpreter ran out of memory and was restarted";
            } else {
                events.emit(executionId, new Event.Error("SandboxExited", reason, List.of()));
            }
            events.emit(executionId, new Event.Restarted(reason));
            finish(executionId, new Event.Finished(oom ? Status.OOM : Status.ERROR, null, elapsedMs(), null, null));
        } else {
            events.emit(NO_EXECUTION, new Event.Restarted(reason));
        }
        warmQuietly();
    }

    private void restartInterpreter(String reason) {
        discardSandbox();
        String executionId = current != null ? current.cell.executionId() : NO_EXECUTION;
        events.emit(executionId, new Event.Restarted(reason));
        if (current != null) {
            finish(executionId, new Event.Finished(Status.INTERRUPTED, null, elapsedMs(), null, null));
        }
        warmQuietly();
    }

    private void shutDown() {
        discardSandbox();
        if (current != null) {
            finish(current.cell.executionId(), new Event.Finished(Status.INTERRUPTED, null, elapsedMs(), null, null));
        }
        Submit cell;
        while ((cell = pending.pollFirst()) != null) {
            finish(cell.executionId(), new Event.Finished(Status.INTERRUPTED, null, 0L, null, null));
        }
        for (Signal s : inbox) {
            if (s instanceof Submit sub) {
                finish(sub.executionId(), new Event.Finished(Status.INTERRUPTED, null, 0L, null, null));
            }
        }
        inbox.clear();
    }

    private void finish(String executionId, Event.Finished finished) {
        if (current != null && current.cell.executionId().equals(executionId)) {
            emitArtifacts(executionId);
        }
        events.emit(executionId, finished);
        outstanding.decrementAndGet();
        if (current != null && current.cell.executionId().equals(executionId)) {
            current = null;
        }
        touch();
    }

    /** One {@code artifact} per file the cell created or changed, before its {@code finished}. */
    private void emitArtifacts(String executionId) {
        Workspace mine = workspace;
        if (mine == null) {
            return;
        }
        try {
            for (WorkspaceFile f : mine.changedSince(current.filesBefore)) {
                events.emit(executionId, new Event.Artifact(f.name(), f.size(), f.mime(), fileUrl(f.name())));
            }
        } catch (WorkspaceException e) {
            log.warn("session {}: could not list the workspace: {}", id, e.getMessage());
        }
    }

    private Map<String, Workspace.Stamp> snapshotQuietly() {
        try {
            return workspace == null ? Map.of() : workspace.snapshot();
        } catch (WorkspaceException e) {
            return Map.of();
        }
    }

    /** Where the API serves a workspace file (the session's token is needed to fetch it). */
    public String fileUrl(String name) {
        return "/api/v1/sessions/" + id + "/files/"
                + java.net.URLEncoder.encode(name, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }

    private void warmQuietly() {
        if (closed) {
            return;
        }
        try {
            ensureSandbox();
        } catch (SandboxException e) {
            log.warn("session {}: no fresh sandbox yet: {}", id, e.getMessage());
        }
    }

    private void discardSandbox() {
        Sandbox s = sandbox;
        sandbox = null;
        if (s != null) {
            s.close();
        }
    }

    private long elapsedMs() {
        if (current == null) {
            return 0;
        }
        long started = current.deadline - current.cell.timeout().toNanos();
        return (System.nanoTime() - started) / 1_000_000;
    }

    private static String formatSeconds(Duration d) {
        double s = d.toMillis() / 1000.0;
        return (s == Math.rint(s) ? String.valueOf((long) s) : String.valueOf(s)) + " s";
    }
}
