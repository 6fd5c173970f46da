package dev.codeinterp.server.sandbox;

import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.files.Workspaces;
import dev.codeinterp.server.metrics.ServerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Keeps {@code target} started, idle sandboxes, each with a fresh workspace, so a new session gets
 * one in milliseconds. A taken sandbox is replaced in the background; when the pool is empty,
 * {@link #acquire()} starts one cold. A sandbox that died while waiting is thrown away, never
 * handed out. A session that already has a workspace (a restart) gets a cold sandbox on it from
 * {@link #startFor}: mounts are fixed when a container is created.
 *
 * <p>An empty pool refills one sandbox at once; past that it refills only while {@code quiet} says
 * no cells are running (the session layer's CellActivity), so a drained big pool does not take the
 * CPU from the cells of the sessions that just drained it.
 */
public final class SandboxPool implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SandboxPool.class);

    /** Short enough that the pool is warm again within seconds of the engine coming back. */
    private static final long MAX_BACKOFF_MS = 5_000;
    /** How often a pool below target looks for a quiet moment to refill in. */
    private static final long QUIET_POLL_MS = 50;

    private final SandboxBackend backend;
    private final Workspaces workspaces;
    private final int target;
    private final BlockingDeque<Sandbox> idle = new LinkedBlockingDeque<>();
    private final AtomicInteger starting = new AtomicInteger();
    private final Object refill = new Object();
    private final Thread filler;
    private volatile boolean closed;
    private volatile String lastProblem;
    private final ServerMetrics metrics;
    private final BooleanSupplier quiet;
    private final WarmTemplate template;

    public SandboxPool(SandboxBackend backend, Workspaces workspaces, int target, ServerMetrics metrics) {
        this(backend, workspaces, target, metrics, () -> true, null);
    }

    /** {@code template}: where new sandboxes start from, or null for a cold runner each. */
    public SandboxPool(SandboxBackend backend, Workspaces workspaces, int target, ServerMetrics metrics, BooleanSupplier quiet,
                       WarmTemplate template) {
        this.template = template;
        this.metrics = metrics;
        this.quiet = quiet;
        this.backend = backend;
        this.workspaces = workspaces;
        this.target = target;
        this.filler = new Thread(this::fillLoop, "sandbox-pool");
        filler.setDaemon(true);
    }

    public void start() {
        if (!filler.isAlive() && !closed) {
            filler.start();
        }
    }

    /** A started sandbox with a fresh workspace: warm from the pool, or cold when the pool is empty. */
    public Sandbox acquire() {
        if (closed) {
            throw new SandboxException("the server is shutting down");
        }
        long t0 = System.nanoTime();
        Sandbox warm = pollWarm();
        if (warm != null) {
            metrics.sandboxAcquired(true, t0);
            return warm;
        }
        wakeFiller();
        Sandbox cold = startFresh();
        metrics.sandboxAcquired(false, t0);
        return cold;
    }

    /** A warm sandbox if one is ready now, else null (never starts one). */
    public Sandbox takeWarm() {
        long t0 = System.nanoTime();
        Sandbox warm = pollWarm();
        if (warm != null) {
            metrics.sandboxAcquired(true, t0);
        }
        return warm;
    }

    private Sandbox pollWarm() {
        Sandbox sandbox;
        while ((sandbox = idle.pollFirst()) != null) {
            if (sandbox.alive()) {
                wakeFiller();
                return sandbox;
            }
            discard(sandbox);
        }
        return null;
    }

    /** A sandbox taken with {@link #takeWarm} and not used after all: back to the front of the pool. */
    public void giveBack(Sandbox sandbox) {
        if (closed || !sandbox.alive()) {
            discard(sandbox);
            return;
        }
        idle.addFirst(sandbox);
    }

    /** A cold sandbox on an existing workspace (the session's files stay where they are). */
    public Sandbox startFor(Workspace workspace) {
        if (closed) {
            throw new SandboxException("the server is shutting down");
        }
        return timedStart(workspace);
    }

    /** A session's sandbox that an earlier process of this server left running ({@link SandboxBackend#adopt}). */
    public Sandbox adopt(String containerId, Workspace workspace, long linesStored) {
        return backend.adopt(containerId, workspace, linesStored);
    }

    /** {@link SandboxBackend#checkpoints}. */
    public CheckpointSupport checkpoints() {
        return backend.checkpoints();
    }

    /** A session's idle sandbox written to disk and removed ({@link SandboxBackend#suspend}). */
    public Checkpoint suspend(Sandbox sandbox, java.nio.file.Path parent) {
        return backend.suspend(sandbox, parent);
    }

    /** A session's idle sandbox written to disk and left running ({@link SandboxBackend#copy}). */
    public Checkpoint copy(Sandbox sandbox, java.nio.file.Path parent) {
        return backend.copy(sandbox, parent);
    }

    /** A session's interpreter brought back from disk ({@link SandboxBackend#restore}); counts as a start. */
    public Sandbox restore(Checkpoint checkpoint, Workspace workspace, long linesStored) {
        if (closed) {
            throw new SandboxException("the server is shutting down");
        }
        return backend.restore(checkpoint, workspace, linesStored);
    }

    private Sandbox startFresh() {
        Workspace workspace = workspaces.create();
        try {
            return timedStart(workspace);
        } catch (RuntimeException e) {
            workspaces.destroy(workspace);
            throw e;
        }
    }

    private Sandbox timedStart(Workspace workspace) {
        long t0 = System.nanoTime();
        boolean ok = false;
        try {
            Sandbox started = template == null ? backend.start(workspace) : fromTemplate(workspace);
            ok = true;
            return started;
        } finally {
            metrics.sandboxStarted(ok, t0);
        }
    }

    /** From the warm template; a cold start when it cannot be made or restored (the template is tried again next time). */
    private Sandbox fromTemplate(Workspace workspace) {
        try {
            return template.start(workspace);
        } catch (SandboxException e) {
            log.warn("started cold: the warm template failed: {}", e.getMessage());
            return backend.start(workspace);
        }
    }

    /** An idle sandbox nobody will use: it and its (empty) workspace go. */
    private void discard(Sandbox sandbox) {
        sandbox.close();
        workspaces.destroy(sandbox.workspace());
    }

    public int idleCount() {
        return idle.size();
    }

    public int target() {
        return target;
    }

    public String lastProblem() {
        return lastProblem;
    }

    private void wakeFiller() {
        synchronized (refill) {
            refill.notifyAll();
        }
    }

    private void fillLoop() {
        long backoffMs = 500;
        while (!closed) {
            if (idle.size() < target && (idle.isEmpty() || quiet.getAsBoolean())) {
                try {
                    starting.incrementAndGet();
                    Sandbox s = startFresh();
                    if (closed) {
                        discard(s);
                        return;
                    }
                    idle.addLast(s);
                    lastProblem = null;
                    backoffMs = 500;
                    continue;
                } catch (RuntimeException e) {
                    lastProblem = e.getMessage();
                    log.warn("could not warm a sandbox: {}", e.getMessage());
                    sleep(backoffMs);
                    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
                    continue;
                } finally {
                    starting.decrementAndGet();
                }
            }
            synchronized (refill) {
                try {
                    refill.wait(idle.size() < target ? QUIET_POLL_MS : 1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
            idle.removeIf(s -> {
                if (!s.alive()) {
                    discard(s);
                    return true;
                }
                return false;
            });
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        filler.interrupt();
        try {
            filler.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Sandbox s;
        while ((s = idle.pollFirst()) != null) {
            discard(s);
        }
    }
}
