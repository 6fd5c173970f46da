package dev.codeinterp.server.cluster;

import dev.codeinterp.server.config.NodeSettings;
import dev.codeinterp.server.session.SessionManager;
import dev.codeinterp.server.store.NodeRepository;
import dev.codeinterp.server.store.StoredNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Empties this node before it stops: it takes no new session (the front door's room check says
 * draining), then each of its sessions moves to another active node with room, a few at a time,
 * with its files and, where the runtime can checkpoint, its variables. A session busy with a cell
 * moves once its accepted cells are done. Rounds repeat until none is left or time is up: a session
 * no node would take stays here, suspended, and waits for this node to start again. An MCP session's
 * code sessions all go to one node, and its row follows the last of them ({@link McpSessionCatalog#move}),
 * so an MCP session and what it made stay together.
 */
public final class NodeDrain {
    private static final Logger log = LoggerFactory.getLogger(NodeDrain.class);
    /** Moves at once: each is a checkpoint write, a transfer and a commit; more only queue on the engine. */
    private static final int AT_ONCE = 4;

    private final NodeRegistry registry;
    private final NodeRepository nodes;
    private final SessionManager sessions;
    private final SessionHandover handover;
    private final NodeSettings settings;
    private final String runtime;
    private final McpSessionCatalog mcpSessions;

    public NodeDrain(NodeRegistry registry, NodeRepository nodes, SessionManager sessions, SessionHandover handover,
                     NodeSettings settings, String runtime, McpSessionCatalog mcpSessions) {
        this.mcpSessions = mcpSessions;
        this.registry = registry;
        this.nodes = nodes;
        this.sessions = sessions;
        this.handover = handover;
        this.settings = settings;
        this.runtime = runtime;
    }

    /** What a drain did: sessions moved, and those left here (no node took them in time). */
    public record Result(int moved, int left, long millis) {
    }

    public Result run(Duration within) {
        long t0 = System.nanoTime();
        long deadline = t0 + within.toNanos();
        registry.draining();
        registry.serving(); // the state is in the store now, not at the next heartbeat
        log.info("node {} draining: it takes no new session and moves its {} to other nodes", registry.id(), sessions.ownIds().size());
        AtomicInteger moved = new AtomicInteger();
        List<String> left = sessions.ownIds();
        Map<String, List<String>> bundles = mcpSessions.bundlesHere();
        // an MCP session's code sessions go where the first of them went, also in a later round
        Map<String, StoredNode> bundleTargets = new ConcurrentHashMap<>();
        ExecutorService movers = Executors.newFixedThreadPool(AT_ONCE, r -> {
            Thread t = new Thread(r, "drain-move");
            t.setDaemon(true);
            return t;
        });
        try {
            while ((!left.isEmpty() || !bundles.isEmpty()) && System.nanoTime() < deadline) {
                Map<String, Integer> assigned = new ConcurrentHashMap<>();
                List<Future<?>> round = new ArrayList<>();
                java.util.Set<String> bundled = new java.util.HashSet<>();
                bundles.values().forEach(bundled::addAll);
                for (Map.Entry<String, List<String>> bundle : bundles.entrySet()) {
                    round.add(movers.submit(() -> {
                        StoredNode to = bundleTargets.computeIfAbsent(bundle.getKey(),
                                k -> target(assigned, Math.max(1, bundle.getValue().size())).orElse(null));
                        if (to == null) {
                            return;
                        }
                        boolean all = mcpSessions.move(bundle.getKey(), to.id(), codeSessions -> {
                            boolean ok = true;
                            for (String id : codeSessions) {
                                if (moveOne(id, to)) {
                                    moved.incrementAndGet();
                                } else {
                                    ok = false;
                                }
                            }
                            return ok;
                        });
                        if (all) {
                            log.info("MCP session {} moved to node {} with its sessions", bundle.getKey(), to.id());
                        }
                    }));
                }
                for (String id : left) {
                    if (bundled.contains(id) || mcpSessions.madeByOneHere(id)) {
                        continue; // it goes with its MCP session (one made since the round began, too)
                    }
                    round.add(movers.submit(() -> {
                        Optional<StoredNode> to = target(assigned, 1);
                        if (to.isPresent() && moveOne(id, to.get())) {
                            moved.incrementAndGet();
                        }
                    }));
                }
                for (Future<?> f : round) {
                    try {
                        f.get();
                    } catch (java.util.concurrent.ExecutionException e) {
                        log.warn("a move failed: {}", e.getCause().toString());
                    }
                }
                left = sessions.ownIds();
                bundles = mcpSessions.bundlesHere();
                if (!left.isEmpty() || !bundles.isEmpty()) {
                    log.info("node {} draining: {} session(s) and {} MCP session(s) still here; trying again", registry.id(),
                            left.size(), bundles.size());
                    Thread.sleep(1_000);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            movers.shutdownNow();
        }
        Result result = new Result(moved.get(), left.size(), (System.nanoTime() - t0) / 1_000_000);
        if (result.left() == 0 && bundles.isEmpty()) {
            registry.handedOverAll();
        }
        if (result.left() > 0) {
            log.warn("node {} drained in {} ms: {} session(s) moved, {} left here (no node took them in time); they wait for it",
                    registry.id(), result.millis(), result.moved(), result.left());
        } else {
            log.info("node {} drained in {} ms: {} session(s) moved", registry.id(), result.millis(), result.moved());
        }
        return result;
    }

    private boolean moveOne(String id, StoredNode to) {
        boolean ok = sessions.residency().moves().moveOut(id, filesOnlyWhy(), (sessionId, folder, wasRunning) -> handover.send(to, sessionId, folder, wasRunning));
        if (ok) {
            log.info("session {} moved to node {}", id, to.id());
        }
        return ok;
    }

    /** Why a session moved off a node that cannot checkpoint has no variables any more: its next cell says it. */
    private String filesOnlyWhy() {
        return "this session moved to another node when node " + registry.id() + " was drained, and the " + runtime
                + " runtime cannot carry an interpreter across: its variables are gone, its files and history are kept";
    }

    /**
     * The active node with the most room, counting what this drain already sent it; nodes of this
     * node's runtime first (a checkpoint restores only under the runtime that wrote it), counted as
     * taking {@code sessionsToSend}. Empty when none is heard from recently enough or all are full.
     */
    private Optional<StoredNode> target(Map<String, Integer> assigned, int sessionsToSend) {
        long heardSince = System.currentTimeMillis() - settings.lossAfter().toMillis();
        synchronized (assigned) {
            Optional<StoredNode> best = nodes.all().stream()
                    .filter(n -> StoredNode.ACTIVE.equals(n.state()) && !n.id().equals(registry.id()) && n.url() != null
                            && n.heartbeatAt() >= heardSince)
                    .filter(n -> n.capacity() <= 0 || n.sessions() + assigned.getOrDefault(n.id(), 0) < n.capacity())
                    .min(Comparator.comparing((StoredNode n) -> !n.runtime().equals(runtime))
                            .thenComparingInt(n -> n.sessions() + assigned.getOrDefault(n.id(), 0)));
            best.ifPresent(n -> assigned.merge(n.id(), sessionsToSend, Integer::sum));
            return best;
        }
    }
}
