package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.runner.RunnerMessage;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.sandbox.RunnerOutput;
import dev.codeinterp.server.sandbox.Sandbox;
import dev.codeinterp.server.sandbox.SandboxExit;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A sandbox without Docker: it records every line it was sent, answers cells as its
 * {@link Script} says, answers an interrupt like the runner (KeyboardInterrupt, then
 * {@code finished}) unless told to ignore it, and dies when told to, or at once when it is born dead.
 */
final class FakeSandbox implements Sandbox {
    /** How the fake runner answers one cell. */
    @FunctionalInterface
    interface Script {
        void run(FakeSandbox sandbox, String executionId, String code);
    }

    /** Starts, says {@code events}, and finishes ok. */
    static Script answers(Event... events) {
        return (sandbox, executionId, code) -> {
            sandbox.say(executionId, new Event.Started(1));
            for (Event e : events) {
                sandbox.say(executionId, e);
            }
            sandbox.finish(executionId, Status.OK);
        };
    }

    /** As {@link #answers}, with all of it in one read, as the runner writes a quick cell. */
    static Script answersInOneWrite(Event... events) {
        return (sandbox, executionId, code) -> {
            List<RunnerMessage> all = new java.util.ArrayList<>();
            all.add(new RunnerMessage.CellEvent(executionId, new Event.Started(1)));
            for (Event e : events) {
                all.add(new RunnerMessage.CellEvent(executionId, e));
            }
            all.add(new RunnerMessage.CellEvent(executionId, new Event.Finished(Status.OK, 1L, 1L, 1L, 1L)));
            sandbox.deliver(all);
        };
    }

    /** Starts and never finishes by itself. */
    static final Script HANGS = (sandbox, executionId, code) -> sandbox.say(executionId, new Event.Started(1));

    private final String id;
    private final Workspace workspace;
    private final Script script;
    private final boolean ignoresInterrupts;
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private volatile Consumer<RunnerOutput> messages = m -> { };
    private long lines;
    private final List<Long> acknowledged = new CopyOnWriteArrayList<>();
    private volatile boolean detached;
    private volatile Runnable exited = () -> { };
    private volatile boolean alive;
    private volatile boolean closed;
    private volatile SandboxExit exit;
    private volatile String running;

    private FakeSandbox(String id, Workspace workspace, Script script, boolean ignoresInterrupts, SandboxExit bornDead) {
        this.id = id;
        this.workspace = workspace;
        this.script = script;
        this.ignoresInterrupts = ignoresInterrupts;
        this.alive = bornDead == null;
        this.exit = bornDead;
    }

    static FakeSandbox running(String id, Workspace workspace, Script script) {
        return new FakeSandbox(id, workspace, script, false, null);
    }

    /** A runner that goes on with its cell whatever the interrupt: only a restart stops it. */
    static FakeSandbox ignoringInterrupts(String id, Workspace workspace, Script script) {
        return new FakeSandbox(id, workspace, script, true, null);
    }

    /** An image whose runner dies as soon as it is started. */
    static FakeSandbox bornDead(String id, Workspace workspace, SandboxExit exit) {
        return new FakeSandbox(id, workspace, HANGS, false, exit);
    }

    /** Sends a runner event for a cell, as the runner's stdout would. */
    void say(String executionId, Event event) {
        deliver(List.of(new RunnerMessage.CellEvent(executionId, event)));
    }

    /** One read of the runner's output: each message one of its numbered lines. */
    synchronized void deliver(List<RunnerMessage> read) {
        lines += read.size();
        messages.accept(new RunnerOutput(read, lines));
    }

    /** The line counts the session acknowledged, in order. */
    List<Long> acknowledged() {
        return List.copyOf(acknowledged);
    }

    boolean detached() {
        return detached;
    }

    void finish(String executionId, Status status) {
        say(executionId, new Event.Finished(status, 1L, 1L, 1L, 1L));
        if (executionId.equals(running)) {
            running = null;
        }
    }

    /** The container dies, with what inspecting it would say. */
    void die(SandboxExit how) {
        exit = how;
        alive = false;
        exited.run();
    }

    /** The type of every line sent to the runner, in order ("execute", "interrupt"). */
    List<String> sentTypes() {
        return sent.stream().map(line -> JsonObject.parse(line).string("type")).toList();
    }

    boolean closed() {
        return closed;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String runtime() {
        return "fake";
    }

    @Override
    public Workspace workspace() {
        return workspace;
    }

    @Override
    public void onOutput(Consumer<RunnerOutput> messages, Runnable exited) {
        this.messages = messages;
        this.exited = exited;
        if (!alive) {
            exited.run();
        }
    }

    @Override
    public void acknowledge(long lines) {
        acknowledged.add(lines);
    }

    @Override
    public long linesRead() {
        return lines;
    }

    @Override
    public void detach() {
        detached = true;
        alive = false;
    }

    @Override
    public void send(String line) {
        sent.add(line);
        if (!alive) {
            return;
        }
        JsonObject command = JsonObject.parse(line);
        switch (command.string("type")) {
            case "execute" -> {
                running = command.string("id");
                script.run(this, command.string("id"), command.string("code"));
            }
            case "interrupt" -> {
                String cell = running;
                if (cell != null && !ignoresInterrupts) {
                    say(cell, new Event.Error("KeyboardInterrupt", "", List.of()));
                    finish(cell, Status.INTERRUPTED);
                }
            }
            default -> {
            }
        }
    }

    @Override
    public SandboxExit diagnose() {
        return exit != null ? exit : SandboxExit.uninspectable("");
    }

    @Override
    public boolean alive() {
        return alive;
    }

    @Override
    public void close() {
        closed = true;
        alive = false;
    }
}
