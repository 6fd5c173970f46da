package dev.codeinterp.server.session.residency;

import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.files.Workspaces;
import dev.codeinterp.server.sandbox.Sandbox;
import dev.codeinterp.server.sandbox.SandboxException;
import dev.codeinterp.server.sandbox.SandboxPool;
import dev.codeinterp.server.store.ExecutionRepository;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoredSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * At start, the sandboxes a previous process of this server left running for its open sessions
 * (recorded in the store) are attached again, in parallel: each one's runner replays the output
 * lines the store does not hold, and a cell that was running goes on. A sandbox that is gone,
 * stopped or not ours is skipped; that session gets a fresh interpreter on its next use.
 */
final class SessionAdoption {
    private static final Logger log = LoggerFactory.getLogger(SessionAdoption.class);
    /** Attaches at once: each is a few engine calls, mostly waiting. */
    private static final int PARALLEL = 8;

    /** An adopted session's sandbox, the cell running in it (or null) and those it had waiting, oldest first. */
    record Adopted(StoredSession stored, Sandbox sandbox, String runningCell, List<String> waitingCells) {
    }

    private final SessionRepository sessions;
    private final ExecutionRepository executions;
    private final SandboxPool pool;
    private final Workspaces workspaces;

    SessionAdoption(SessionRepository sessions, ExecutionRepository executions, SandboxPool pool, Workspaces workspaces) {
        this.sessions = sessions;
        this.executions = executions;
        this.pool = pool;
        this.workspaces = workspaces;
    }

    /** Every session whose sandbox could be attached again, by session id. */
    Map<String, Adopted> adoptAll() {
        List<StoredSession> candidates = sessions.openWithSandbox().stream()
                .filter(s -> !s.oneShot() && s.workspace() != null).toList(); // a one-shot's caller is gone with the process
        if (candidates.isEmpty()) {
            return Map.of();
        }
        long t0 = System.nanoTime();
        Map<String, List<ExecutionRepository.UnfinishedExecution>> unfinished = new HashMap<>();
        for (ExecutionRepository.UnfinishedExecution u : executions.unfinished(sessions.node())) {
            unfinished.computeIfAbsent(u.sessionId(), k -> new ArrayList<>()).add(u);
        }
        Map<String, Adopted> adopted = new ConcurrentHashMap<>();
        ExecutorService attach = Executors.newFixedThreadPool(Math.min(PARALLEL, candidates.size()), r -> {
            Thread t = new Thread(r, "session-adoption");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> all = new ArrayList<>();
            for (StoredSession stored : candidates) {
                all.add(attach.submit(() -> adopt(stored, unfinished.getOrDefault(stored.id(), List.of()), adopted)));
            }
            for (Future<?> f : all) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            log.warn("adopting sandboxes failed", e.getCause());
        } finally {
            attach.shutdown();
        }
        log.info("adopted the sandboxes of {} of {} session(s) left by the previous server process in {} ms", adopted.size(),
                candidates.size(), (System.nanoTime() - t0) / 1_000_000);
        return adopted;
    }

    private void adopt(StoredSession stored, List<ExecutionRepository.UnfinishedExecution> cells, Map<String, Adopted> adopted) {
        try {
            Workspace workspace = workspaces.open(stored.workspace());
            Sandbox sandbox = pool.adopt(stored.sandbox(), workspace, stored.sandboxLines());
            String running = null;
            List<String> waiting = new ArrayList<>();
            for (ExecutionRepository.UnfinishedExecution cell : cells) {
                if (cell.wasRunning() && running == null) {
                    running = cell.executionId();
                } else {
                    waiting.add(cell.executionId());
                }
            }
            adopted.put(stored.id(), new Adopted(stored, sandbox, running, List.copyOf(waiting)));
        } catch (SandboxException | IllegalArgumentException e) {
            log.info("session {}: not adopted: {}", stored.id(), e.getMessage());
        }
    }
}
