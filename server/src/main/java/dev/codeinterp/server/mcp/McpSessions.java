// Over 300 lines: an MCP session's whole life (begin, revive after a restart or drain, the client check, idle end) shares one map and its lock.
package dev.codeinterp.server.mcp;

import dev.codeinterp.server.cluster.McpSessionCatalog;
import dev.codeinterp.server.session.Client;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.session.SessionKey;
import dev.codeinterp.server.session.SessionLostException;
import dev.codeinterp.server.session.SessionManager;
import dev.codeinterp.server.session.SessionNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;

/**
 * The MCP sessions this process serves: which client each belongs to, which code sessions it made,
 * and the SDK's id for it (the id its client holds is another, {@link McpSessionIds}). Each is kept
 * in the store too ({@link McpSessionCatalog}), so it outlives this process: a restart or a drain
 * keeps it, and it is begun again where it lives ({@link #revived}). Its code sessions are opened by
 * owner, not by token (no token is kept anywhere): that this MCP session made one is the proof, and
 * only its client can name the MCP session. An MCP session ends on DELETE or after the idle TTL
 * without a request, wherever it was last held, and its code sessions are closed with it; its id is
 * then answered like any unknown one. A client holds at most {@link #MAX_PER_CLIENT} here: a new one
 * ends its least recently used, so clients that never say goodbye cannot pile them up.
 */
final class McpSessions implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(McpSessions.class);
    static final int MAX_PER_CLIENT = 64;
    /** The store hears that an MCP session is in use at most this often (its idle end is counted from it after a restart). */
    private static final Duration STORE_SEEN_AT_MOST_EVERY = Duration.ofSeconds(30);

    private final SessionManager sessions;
    private final McpSessionCatalog catalog;
    private final Duration idleTtl;
    private final Duration storeSeenEvery;
    /** By the SDK's id. */
    private final Map<String, Bound> bound = new ConcurrentHashMap<>();
    /** The client's id for each to the SDK's. */
    private final Map<String, String> sdkIds = new ConcurrentHashMap<>();
    /** By the client's id: requests share it, a revival or a move takes it alone. */
    private final Map<String, ReentrantReadWriteLock> locks = new ConcurrentHashMap<>();
    private volatile SdkSessions sdk;
    private final ScheduledExecutorService reaper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mcp-session-reaper");
        t.setDaemon(true);
        return t;
    });

    /** One MCP session: the id its client holds, its client, when it was last heard from, its code sessions. */
    private static final class Bound {
        final String external;
        final String clientId;
        final Set<String> codeSessions = ConcurrentHashMap.newKeySet();
        volatile long lastSeen = System.nanoTime();
        volatile long lastStored = System.nanoTime();

        Bound(String external, String clientId) {
            this.external = external;
            this.clientId = clientId;
        }
    }

    /** What a client sent in {@code initialize}, kept to begin its session again. */
    record Initialize(String protocolVersion, String capabilities, String clientInfo) {
    }

    McpSessions(SessionManager sessions, McpSessionCatalog catalog, Duration idleTtl, Duration reapInterval) {
        this.sessions = sessions;
        this.catalog = catalog;
        this.idleTtl = idleTtl;
        this.storeSeenEvery = idleTtl.dividedBy(4).compareTo(STORE_SEEN_AT_MOST_EVERY) < 0 ? idleTtl.dividedBy(4) : STORE_SEEN_AT_MOST_EVERY;
        long every = Math.max(100, reapInterval.toMillis());
        reaper.scheduleWithFixedDelay(this::reapIdle, every, every, TimeUnit.MILLISECONDS);
    }

    /** The SDK's sessions, to begin and end them from here; set once the transport exists. */
    void sdk(SdkSessions sdk) {
        this.sdk = sdk;
    }

    /** The MCP session the transport just created, {@code external} to its client, belongs to {@code client}. */
    void bind(String sdkId, String external, Client client, Initialize init) {
        catalog.begun(external, client.id(), init.protocolVersion(), init.capabilities(), init.clientInfo(), System.currentTimeMillis());
        bound.putIfAbsent(sdkId, new Bound(external, client.id()));
        sdkIds.put(external, sdkId);
        List<Map.Entry<String, Bound>> mine = bound.entrySet().stream()
                .filter(e -> e.getValue().clientId.equals(client.id()))
                .sorted(Comparator.comparingLong(e -> e.getValue().lastSeen))
                .toList();
        for (int i = 0; i < mine.size() - MAX_PER_CLIENT; i++) {
            log.info("ending an MCP session: its client opened more than {}", MAX_PER_CLIENT);
            end(mine.get(i).getKey());
        }
    }

    /** The lock of the MCP session the client calls {@code external}: requests hold it shared, a revival or move alone. */
    ReentrantReadWriteLock lock(String external) {
        return locks.computeIfAbsent(external, k -> new ReentrantReadWriteLock(true));
    }

    /** The SDK's id for {@code external} when this process serves it and it is {@code client}'s, else null; marks it heard from. */
    String usableBy(String external, Client client) {
        String sdkId = sdkIds.get(external);
        Bound b = sdkId == null ? null : bound.get(sdkId);
        if (b == null || !b.clientId.equals(client.id())) {
            return null;
        }
        long now = System.nanoTime();
        b.lastSeen = now;
        if (now - b.lastStored > storeSeenEvery.toNanos()) {
            b.lastStored = now;
            try {
                catalog.seen(external, System.currentTimeMillis());
            } catch (RuntimeException e) {
                log.debug("could not note MCP session {} as heard from: {}", external, e.getMessage());
            }
        }
        return sdkId;
    }

    /**
     * Serves the stored MCP session {@code kept} here again: the SDK's session begun anew with what
     * its client once sent, mapped to the id the client holds. Once: concurrent callers find the first
     * one's. Call it holding {@link #lock}'s write lock.
     */
    String revived(McpSessionCatalog.Kept kept, Client client) {
        String already = usableBy(kept.id(), client);
        if (already != null) {
            return already;
        }
        String sdkId = sdk.begin(kept, client);
        Bound b = new Bound(kept.id(), kept.client());
        b.codeSessions.addAll(kept.codeSessions());
        bound.put(sdkId, b);
        sdkIds.put(kept.id(), sdkId);
        log.info("MCP session {} is served here again, with its {} code session(s)", kept.id(), kept.codeSessions().size());
        return sdkId;
    }

    /**
     * Runs {@code move} (a drain's) while MCP session {@code external} takes no request here: requests
     * in flight end first, new ones wait. When it went, this process forgets it, and the waiting
     * requests find it at its new node.
     */
    boolean whileHeld(String external, BooleanSupplier move) {
        ReentrantReadWriteLock lock = lock(external);
        lock.writeLock().lock();
        try {
            boolean went = move.getAsBoolean();
            if (went) {
                forget(external);
            }
            return went;
        } finally {
            lock.writeLock().unlock();
        }
    }

    void adopt(String sdkId, String codeSessionId) {
        Bound b = bound.get(sdkId);
        if (b == null) {
            throw new IllegalStateException("the MCP session has ended");
        }
        catalog.made(b.external, codeSessionId);
        b.codeSessions.add(codeSessionId);
    }

    /**
     * The code session {@code codeSessionId} if this MCP session created it and it is still open;
     * otherwise {@link SessionNotFoundException}, whatever the reason, so another MCP session's ids tell nothing.
     */
    Session open(String sdkId, String codeSessionId) {
        Bound b = bound.get(sdkId);
        if (b == null || codeSessionId == null || !b.codeSessions.contains(codeSessionId)) {
            throw new SessionNotFoundException();
        }
        try {
            return sessions.open(codeSessionId, SessionKey.ownedBy(b.clientId));
        } catch (SessionNotFoundException e) {
            b.codeSessions.remove(codeSessionId); // closed or reaped meanwhile
            throw e;
        }
    }

    /** Closes one code session of this MCP session. */
    void close(String sdkId, String codeSessionId) {
        Session session = open(sdkId, codeSessionId);
        Bound b = bound.get(sdkId);
        b.codeSessions.remove(codeSessionId);
        catalog.closed(b.external, codeSessionId);
        sessions.close(session);
    }

    /** The MCP session is over: its code sessions are closed, its row goes, and its id is not accepted again. */
    void end(String sdkId) {
        Bound b = bound.remove(sdkId);
        if (b == null) {
            return;
        }
        sdkIds.remove(b.external, sdkId);
        endSdkSession(sdkId);
        closeAll(b.clientId, b.codeSessions);
        catalog.ended(b.external);
        locks.remove(b.external);
    }

    /** An MCP session this process does not serve, idle past the TTL in the store: ended as {@link #end} would. */
    private void endStored(String external) {
        ReentrantReadWriteLock lock = lock(external);
        lock.writeLock().lock();
        try {
            if (sdkIds.containsKey(external)) {
                return; // revived meanwhile: it is in use
            }
            McpSessionCatalog.Kept kept = catalog.find(external).orElse(null);
            if (kept == null || !kept.node().equals(catalog.node())) {
                return;
            }
            closeAll(kept.client(), kept.codeSessions());
            catalog.ended(external);
            log.info("ended a stored MCP session after {} without a request", idleTtl);
        } finally {
            lock.writeLock().unlock();
            locks.remove(external);
        }
    }

    private void closeAll(String clientId, Collection<String> codeSessions) {
        for (String code : List.copyOf(codeSessions)) {
            try {
                sessions.close(sessions.open(code, SessionKey.ownedBy(clientId)));
            } catch (SessionNotFoundException | SessionLostException e) {
                // already closed or reaped, or lost with its node: nothing to close
            } catch (RuntimeException e) {
                log.warn("could not close session {} of an ended MCP session", code, e);
            }
        }
    }

    /** This process stops serving {@code external} (it moved): nothing of it is closed; the store keeps it. */
    private void forget(String external) {
        String sdkId = sdkIds.remove(external);
        if (sdkId != null && bound.remove(sdkId) != null) {
            endSdkSession(sdkId);
        }
    }

    private void endSdkSession(String sdkId) {
        SdkSessions s = sdk;
        if (s == null) {
            return;
        }
        try {
            s.end(sdkId);
        } catch (RuntimeException e) {
            log.debug("the SDK's session {} did not end cleanly: {}", sdkId, e.getMessage());
        }
    }

    void reapIdle() {
        try {
            long now = System.nanoTime();
            for (Map.Entry<String, Bound> e : List.copyOf(bound.entrySet())) {
                if (now - e.getValue().lastSeen > idleTtl.toNanos()) {
                    log.info("ending an MCP session after {} without a request", idleTtl);
                    end(e.getKey());
                }
            }
            // those the store says are this node's but no request brought back since a restart; the store
            // hears of use only every storeSeenEvery, so they get that much longer
            long before = System.currentTimeMillis() - idleTtl.toMillis() - storeSeenEvery.toMillis();
            for (String external : catalog.idleHere(before)) {
                if (!sdkIds.containsKey(external)) {
                    endStored(external);
                }
            }
        } catch (RuntimeException e) {
            log.warn("ending idle MCP sessions failed; trying again later: {}", e.getMessage());
        }
    }

    /**
     * The server stops: its MCP sessions stay in the store, with their code sessions, for the next
     * process (or another node) to serve; when each was last used goes with them.
     */
    @Override
    public void close() {
        reaper.shutdownNow();
        long now = System.currentTimeMillis();
        for (Bound b : List.copyOf(bound.values())) {
            try {
                catalog.seen(b.external, now - Duration.ofNanos(System.nanoTime() - b.lastSeen).toMillis());
            } catch (RuntimeException e) {
                log.debug("could not note when MCP session {} was last used: {}", b.external, e.getMessage());
            }
        }
        bound.clear();
        sdkIds.clear();
    }
}
