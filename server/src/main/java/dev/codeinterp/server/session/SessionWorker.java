// Over 300 lines: the worker's loop, its dispatch and what each signal does read as one; every policy is its own class.
package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.model.runner.RunnerInstall;
import dev.codeinterp.model.runner.RunnerMessage;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.packages.PackageFetchException;
import dev.codeinterp.server.packages.PackageRequest;
import dev.codeinterp.server.sandbox.RunnerOutput;
import dev.codeinterp.server.sandbox.Sandbox;
import dev.codeinterp.server.sandbox.SandboxException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A {@link Session}'s one worker thread: it owns the sandbox slot, the cell queue and supervision,
 * and reacts to the signals in its inbox one at a time (cells submitted, runner output, the sandbox
 * dying, interrupt, restart, close, the clock), so there are no races between a cell finishing and a
 * timeout firing. The flags callers read (busy, closed, awaiting input) are set here.
 */
final class SessionWorker {
    private static final Logger log = LoggerFactory.getLogger(SessionWorker.class);
    private static final Signal TICK = new Signal.ClockTick();
    /** At most this many reads of runner output are handled, and their events stored, as one run. */
    private static final int OUTPUT_RUN = 64;

    private final String id;
    private final SessionEvents events;
    private final ExecutionLimits limits;
    private final SandboxSlot slot;
    private final Supervisor supervisor;
    private final CellQueue cells;
    private final InstallStep installs;
    private final CellInstallRequest cellInstalls;
    private final Runnable touch;
    private final BlockingQueue<Signal> inbox = new LinkedBlockingQueue<>();
    /** Held while a cell is accepted and while the worker decides to suspend: no cell slips in behind a suspension. */
    private final Object admitting = new Object();
    private final Thread thread;
    /** A move's suspension, waiting for the cells accepted before it (worker only). */
    private Signal.SuspendRequest leaving;
    private volatile boolean busy;
    private volatile boolean closed;
    private volatile boolean awaitingInput; // set by the worker before the input_request goes out
    /** Why the interpreter of an earlier server process is gone, told with the next cell (worker only, after start). */
    private String lostInterpreter;

    /** As {@link Session}'s constructor says; {@code touch} marks the session used. */
    SessionWorker(String id, SessionEvents events, SandboxSource sandboxes, Workspace workspace, Consumer<Workspace> workspaceAdopted,
                  Consumer<Sandbox> sandboxTaken, ExecutionLimits limits, FileLinks links, InstallStep installs, Runnable touch) {
        this.id = id;
        this.events = events;
        this.limits = limits;
        this.installs = installs;
        this.touch = touch;
        this.slot = new SandboxSlot(sandboxes, workspace, workspaceAdopted,
                (from, output) -> inbox.add(new Signal.Output(from, output)), from -> inbox.add(new Signal.Exited(from)),
                taken -> {
                    events.newRunner();
                    sandboxTaken.accept(taken);
                });
        this.cellInstalls = new CellInstallRequest(installs, inbox::add, line -> slot.send(line));
        this.supervisor = new Supervisor(limits.restarts());
        this.cells = new CellQueue(events, new ArtifactTracker(id, links), limits.maxQueuedCells(), touch);
        this.thread = new Thread(this::work, "session-" + id.substring(0, Math.min(8, id.length())));
        this.thread.setDaemon(true);
    }

    /** Busy until it waits for work; with {@code warm}, takes a sandbox now, then the thread starts. */
    void start(boolean warm, Runnable beforeThread) {
        busy = true; // the worker says otherwise once it waits for work
        try {
            if (warm) {
                slot.ensure();
            }
        } finally {
            beforeThread.run();
        }
        thread.start();
    }

    /** Before {@link #start}: see {@link Session#adopt}. */
    void adopt(Sandbox running, String runningCell, Duration timeout, List<String> waiting) {
        slot.adopt(running);
        if (runningCell != null) {
            cells.adoptRunning(new RunningCell(runningCell, timeout, limits, System.nanoTime()), slot.workspace());
        }
        for (String cell : waiting) {
            cells.abandon(cell, new Event.Error("ServerRestarted",
                    "the server restarted before this cell ran; run it again", List.of()));
        }
    }

    /** Before {@link #start}: see {@link Session#interpreterLost}. */
    void interpreterLost(String why) {
        lostInterpreter = why;
    }

    Workspace workspace() {
        return slot.workspace();
    }

    /** Accepts a cell under the admitting lock: its {@code queued} event is stored, then the worker hears of it. */
    String accept(Cell cell, PackageRequest request) {
        synchronized (admitting) {
            if (closed) {
                throw new SessionClosedException();
            }
            String executionId = cells.accept(cell.code(), cell.language());
            busy = true;
            touch.run();
            inbox.add(new Signal.Submit(executionId, cell, request));
            return executionId;
        }
    }

    void post(Signal signal) {
        inbox.add(signal);
    }

    /** Posts {@code request} for {@code handOff} to the worker; a closed session refuses it at once. */
    void whenIdle(IdleHandOff<?> handOff, Signal request) {
        if (closed) {
            handOff.fail(new SessionClosedException());
        } else {
            inbox.add(request);
        }
    }

    boolean busy() {
        return busy;
    }

    boolean closed() {
        return closed;
    }

    boolean awaitingInput() {
        return awaitingInput;
    }

    /** Ends the worker the way {@code how} says (close, detach, drop); once only. */
    void stop(Signal how) {
        if (closed) {
            return;
        }
        closed = true;
        inbox.add(how);
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!thread.isAlive()) {
            if (how instanceof Signal.DetachRequest) {
                slot.detach();
            } else {
                slot.discard(); // a worker that never started still holds its warm sandbox
            }
        } else {
            log.warn("session {} worker did not stop within 10 s", id);
        }
    }

    private void work() {
        try {
            while (true) {
                if (cells.readyForNext() && !supervisor.backingOff(System.nanoTime())) {
                    startNext();
                    continue;
                }
                if (leaving != null && !hasWork()) {
                    Signal.SuspendRequest now = leaving;
                    leaving = null;
                    if (parkNow(now)) {
                        return;
                    }
                }
                busy = cells.busy();
                RunningCell running = cells.running();
                long wakeAt = Math.min(running == null ? Supervisor.NEVER : running.nextDeadline(), supervisor.restartAt());
                Signal signal = wakeAt == Supervisor.NEVER ? inbox.take()
                        : inbox.poll(Math.max(0, wakeAt - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (!dispatch(signal == null ? TICK : signal)) {
                    return;
                }
                awaitingInput = cells.running() != null && cells.running().awaitingInput();
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

    /** Reacts to one signal; false when the session is closing. */
    private boolean dispatch(Signal signal) {
        return switch (signal.kind()) {
            case SUBMIT -> {
                cells.enqueue((Signal.Submit) signal);
                yield true;
            }
            case OUTPUT -> {
                long[] stored = {-1};
                events.inOneWrite(() -> stored[0] = onOutputRun((Signal.Output) signal));
                if (stored[0] >= 0) {
                    slot.acknowledge(stored[0]);
                }
                yield true;
            }
            case EXITED -> {
                if (slot.holds(((Signal.Exited) signal).source())) {
                    onSandboxDied();
                }
                yield true;
            }
            case INTERRUPT -> {
                if (cells.running() != null && cells.running().interruptRequested(System.nanoTime())) {
                    slot.send(WireCodec.encodeRunnerCommand("interrupt"));
                }
                yield true;
            }
            case RESTART -> {
                restartInterpreter(((Signal.RestartRequest) signal).reason());
                yield true;
            }
            case CLOCK -> {
                onClock();
                yield true;
            }
            case CLOSE -> {
                shutDown();
                yield false;
            }
            case DETACH -> {
                slot.detach();
                yield false;
            }
            case DROP -> {
                slot.discard();
                yield false;
            }
            case SUSPEND -> !suspendNow((Signal.SuspendRequest) signal);
            case COPY -> {
                copyNow((Signal.CopyRequest) signal);
                yield true;
            }
            case INPUT_REPLY -> {
                if (cells.running() != null && cells.running().answered(System.nanoTime())) {
                    slot.send(WireCodec.encodeRunnerInputReply(((Signal.InputReply) signal).value()));
                } // else the wait ended (interrupt, timeout) after the reply was accepted: it has no one to go to
                yield true;
            }
            case INSTALL_READY -> {
                cellInstalls.onReady(cells.running(), (Signal.InstallReady) signal);
                yield true;
            }
        };
    }

    /** True when the session is suspended (the worker ends); false when a cell came first or writing it down failed. */
    private boolean suspendNow(Signal.SuspendRequest request) {
        synchronized (admitting) {
            if (request.leaving()) {
                closed = true; // no new cell: those accepted run first, then it goes (see work)
                if (hasWork()) {
                    leaving = request;
                    return false;
                }
            } else if (hasWork()) {
                request.work().fail(new SessionBusyException());
                return false;
            }
            closed = true;
        }
        return parkNow(request);
    }

    /** A cell waits or runs, or one accepted is still on its way to the queue. */
    private boolean hasWork() {
        return cells.busy() || inbox.stream().anyMatch(Signal.Submit.class::isInstance);
    }

    /** Hands the sandbox and workspace to the request's writer: true when the session is on disk now (the worker ends). */
    private boolean parkNow(Signal.SuspendRequest request) {
        Sandbox sandbox = slot.release();
        try {
            request.work().run(sandbox, slot.workspace());
            return true;
        } catch (RuntimeException e) {
            closed = false;
            Sandbox back = e instanceof SuspendFailedException failed && failed.restored() != null ? failed.restored() : sandbox;
            if (back != null && back.alive()) {
                slot.adopt(back);
            } else if (sandbox != null) {
                lostInterpreter = "suspending this session failed and its interpreter did not survive it (" + e.getMessage()
                        + "): its variables are gone, its files are kept";
                warmQuietly();
            }
            request.work().fail(e);
            return false;
        }
    }

    private void copyNow(Signal.CopyRequest request) {
        synchronized (admitting) {
            if (hasWork()) {
                request.work().fail(new SessionBusyException());
                return;
            }
        }
        try {
            request.work().run(slot.live(), slot.workspace());
        } catch (RuntimeException e) {
            request.work().fail(e);
        }
    }

    private void startNext() {
        Signal.Submit next = cells.takeNext();
        String executionId = next.executionId();
        Cell cell = next.cell();
        if (supervisor.gaveUp()) {
            events.emit(executionId, CrashReport.keepsCrashing(supervisor.whyGaveUp()));
            cells.finishUnstarted(executionId, Status.ERROR);
            return;
        }
        try {
            slot.ensure();
        } catch (SandboxException e) {
            events.emit(executionId, new Event.Error("SandboxUnavailable", e.getMessage(), List.of()));
            cells.finishUnstarted(executionId, Status.ERROR);
            return;
        }
        if (lostInterpreter != null) {
            events.emit(executionId, new Event.Restarted(lostInterpreter));
            lostInterpreter = null;
        }
        RunnerInstall install;
        try {
            install = installs.prepare(next.packages()); // fetched before the cell's clock starts
        } catch (PackageFetchException e) {
            events.emit(executionId, InstallStep.fetchFailed(e));
            cells.finishUnstarted(executionId, Status.ERROR);
            return;
        }
        cells.started(new RunningCell(executionId, cell.timeout(), limits, System.nanoTime(),
                install == null ? null : installs.installBound()), slot.workspace());
        slot.send(WireCodec.encodeRunnerExecute(executionId, cell.code(), cell.language(), limits.outputCapBytes(),
                cell.input(), install));
    }

    /**
     * {@code first} and the output queued right behind it, up to {@link #OUTPUT_RUN} reads: what the
     * runner wrote at once (often a whole quick cell) and what came while the worker was busy.
     * Returns how many of the held runner's lines are handled, or -1 when none of its lines was here.
     */
    private long onOutputRun(Signal.Output first) {
        Signal.Output output = first;
        long through = -1;
        for (int n = 1; output != null; n++) {
            if (slot.holds(output.source())) {
                RunnerOutput read = output.output();
                read.messages().forEach(this::onRunnerMessage);
                through = slot.holds(output.source()) ? read.linesThrough() : -1; // a message may have replaced the sandbox
            }
            output = n < OUTPUT_RUN && inbox.peek() instanceof Signal.Output ? (Signal.Output) inbox.poll() : null;
        }
        return through;
    }

    private void onRunnerMessage(RunnerMessage message) {
        RunningCell current = cells.running();
        if (message instanceof RunnerMessage.ProtocolError p) {
            if (current != null) {
                events.emit(current.executionId(), new Event.Stream(StreamName.STDERR, "[codeinterp] " + p.message() + "\n"));
            }
            return;
        }
        if (message instanceof RunnerMessage.InstallRequest request) {
            if (current != null && request.executionId().equals(current.executionId())) {
                cellInstalls.onRequest(current, request, System.nanoTime());
            }
            return;
        }
        if (!(message instanceof RunnerMessage.CellEvent ce) || current == null
                || !ce.executionId().equals(current.executionId())) {
            return; // late output of a cell already ended, or a runner announcing itself again
        }
        String executionId = current.executionId();
        List<Event> seen = current.fromRunner(ce.event(), System.nanoTime());
        awaitingInput = current.awaitingInput(); // before the input_request goes out: its answer may come at once
        for (Event event : seen) {
            if (event instanceof Event.Finished finished) {
                cells.finishRunning(finished, slot.workspace());
            } else {
                events.emit(executionId, event);
            }
        }
    }

    /** A deadline passed: the running cell's next rung, and a restart whose back-off is over. */
    private void onClock() {
        RunningCell current = cells.running();
        if (current != null) {
            switch (current.onClock(System.nanoTime())) {
                case INTERRUPT -> slot.send(WireCodec.encodeRunnerCommand("interrupt"));
                case RESTART -> restartAfterGrace();
                case WAIT -> {
                }
            }
        }
        restartIfDue();
    }

    /** The last rung: the cell outlived its grace period, so its interpreter is replaced. */
    private void restartAfterGrace() {
        String executionId = cells.running().executionId();
        ShutdownLadder ladder = cells.running().ladder();
        if (ladder.timedOut()) {
            events.emit(executionId, ladder.timeoutError());
        }
        slot.discard();
        events.emit(executionId, new Event.Restarted(ladder.restartReason()));
        cells.finishRunning(ladder.restartedStatus(), slot.workspace());
        warmQuietly();
    }

    /** The sandbox died on its own: the cell (if any) ends saying why, and supervision decides what follows. */
    private void onSandboxDied() {
        CrashReport report = new CrashReport(slot.diagnose(), limits.memoryBytes());
        slot.discard();
        boolean restart = supervisor.died(System.nanoTime());
        String executionId = cells.runningIdOrNone();
        if (restart) {
            if (cells.running() != null) {
                events.emit(executionId, report.cellError());
            }
            events.emit(executionId, new Event.Restarted(report.restartedReason()));
        } else {
            log.warn("session {}: {}; not restarting it again", id, supervisor.whyGaveUp());
            events.emit(executionId, report.gaveUpError(supervisor.whyGaveUp()));
        }
        if (cells.running() != null) {
            cells.finishRunning(report.cellStatus(), slot.workspace());
        }
        restartIfDue();
    }

    private void restartInterpreter(String reason) {
        lostInterpreter = null; // this restart says it all
        supervisor.reset();
        slot.discard();
        events.emit(cells.runningIdOrNone(), new Event.Restarted(reason));
        if (cells.running() != null) {
            cells.finishRunning(Status.INTERRUPTED, slot.workspace());
        }
        warmQuietly();
    }

    private void shutDown() {
        slot.discard();
        List<Signal.Submit> unread = inbox.stream().filter(Signal.Submit.class::isInstance).map(Signal.Submit.class::cast).toList();
        inbox.clear();
        cells.interruptAll(unread, slot.workspace());
    }

    private void restartIfDue() {
        if (supervisor.takeDueRestart(System.nanoTime())) {
            warmQuietly();
        }
    }

    private void warmQuietly() {
        if (closed) {
            return;
        }
        try {
            slot.ensure();
        } catch (SandboxException e) {
            log.warn("session {}: no fresh sandbox yet: {}", id, e.getMessage());
        }
    }
}
