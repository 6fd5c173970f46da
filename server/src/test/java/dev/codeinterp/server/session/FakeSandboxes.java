package dev.codeinterp.server.session;

import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.sandbox.Sandbox;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;

/** Where a session under test gets its sandboxes: fakes made on demand, every one kept for inspection. */
final class FakeSandboxes implements SandboxSource {
    private final Workspace workspace;
    private volatile BiFunction<String, Workspace, FakeSandbox> maker;
    private final List<FakeSandbox> started = new CopyOnWriteArrayList<>();
    private final List<Long> startedAtNanos = new CopyOnWriteArrayList<>();

    /** {@code maker} makes the n-th sandbox from its id ("sandbox-1", ...) and the workspace. */
    FakeSandboxes(Workspace workspace, BiFunction<String, Workspace, FakeSandbox> maker) {
        this.workspace = workspace;
        this.maker = maker;
    }

    /** Sandboxes started from now on are made by {@code next} (an image fixed, say). */
    void makeFromNowOn(BiFunction<String, Workspace, FakeSandbox> next) {
        this.maker = next;
    }

    @Override
    public Sandbox fresh() {
        return on(workspace);
    }

    @Override
    public Sandbox on(Workspace workspace) {
        FakeSandbox sandbox = maker.apply("sandbox-" + (started.size() + 1), workspace);
        startedAtNanos.add(System.nanoTime());
        started.add(sandbox);
        return sandbox;
    }

    List<FakeSandbox> started() {
        return List.copyOf(started);
    }

    /** Milliseconds between the starts of sandbox {@code n - 1} and {@code n} (1-based). */
    double msBetweenStarts(int n) {
        return (startedAtNanos.get(n - 1) - startedAtNanos.get(n - 2)) / 1e6;
    }

    FakeSandbox latest() {
        return started.get(started.size() - 1);
    }
}
