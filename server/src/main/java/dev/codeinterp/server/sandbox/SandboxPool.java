package dev.codeinterp.server.sandbox;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Keeps {@code target} started, idle sandboxes so a session gets one in milliseconds. A taken
 * sandbox is replaced in the background; when the pool is empty, {@link #acquire()} starts one
 * cold. A sandbox that died while waiting is thrown away, never handed out.
 */
public final class SandboxPool implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SandboxPool.class);

    private final SandboxBackend backend;
    private final int target;
    private final BlockingDeque<Sandbox> idle = new LinkedBlockingDeque<>();
    private final AtomicInteger starting = new AtomicInteger();
    private final Object refill = new Object();
    private final Thread filler;
    private volatile boolean closed;
    private volatile String lastProblem;

    public SandboxPool(SandboxBackend backend, int target) {
        this.backend = backend;
        this.target = target;
        this.filler = new Thread(this::fillLoop, "sandbox-pool");
        filler.setDaemon(true);
    }

    public void start() {
        if (!filler.isAlive() && !closed) {
            filler.start();
        }
    }

    /** A started sandbox: warm from the pool, or cold when the pool is empty. */
    public Sandbox acquire() {
        if (closed) {
            throw new SandboxException("the server is shutting down");
        }
        Sandbox sandbox;
        while ((sandbox = idle.pollFirst()) != null) {
            if (sandbox.alive()) {
                wakeFiller();
                return sandbox;
            }
            sandbox.close();
        }
        wakeFiller();
        return backend.start();
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
            if (idle.size() < target) {
                try {
                    starting.incrementAndGet();
                    Sandbox s = backend.start();
                    if (closed) {
                        s.close();
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
                    backoffMs = Math.min(backoffMs * 2, 30_000);
                    continue;
                } finally {
                    starting.decrementAndGet();
                }
            }
            synchronized (refill) {
                try {
                    refill.wait(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
            idle.removeIf(s -> {
                if (!s.alive()) {
                    s.close();
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
            s.close();
        }
    }
}
