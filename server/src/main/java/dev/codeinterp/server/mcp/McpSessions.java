package dev.codeinterp.server.mcp;

import dev.codeinterp.server.session.Client;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.session.SessionManager;
import dev.codeinterp.server.session.SessionNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Which client each MCP session belongs to, and which code sessions it made. A code session's token
 * never leaves the server: it is kept here, under the MCP session that created the code session, so
 * no other MCP session can name it into use. An MCP session that ends (DELETE, or silent for the idle
 * TTL) closes its code sessions and is forgotten; its id is then answered like any unknown one. A
 * client holds at most {@link #MAX_PER_CLIENT} MCP sessions: a new one ends its least recently used,
 * so clients that never say goodbye cannot pile them up.
 */
final class McpSessions implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(McpSessions.class);
    static final int MAX_PER_CLIENT = 64;

    private final SessionManager sessions;
    private final Duration idleTtl;
    private final Map<String, Bound> bound = new ConcurrentHashMap<>();
    private final ScheduledExecutorService reaper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mcp-session-reaper");
        t.setDaemon(true);
        return t;
    });

    /** One MCP session: its client, when it was last heard from, and its code sessions (id to token). */
    private static final class Bound {
        final String clientId;
        final Map<String, String> codeSessions = new ConcurrentHashMap<>();
        volatile long lastSeen = System.nanoTime();

        Bound(String clientId) {
            this.clientId = clientId;
        }
    }

    McpSessions(SessionManager sessions, Duration idleTtl, Duration reapInterval) {
        this.sessions = sessions;
        this.idleTtl = idleTtl;
        long every = Math.max(100, reapInterval.toMillis());
        reaper.scheduleWithFixedDelay(this::reapIdle, every, every, TimeUnit.MILLISECONDS);
    }

    /** The MCP session the transport just created belongs to {@code client}. */
    void bind(String mcpSessionId, Client client) {
        bound.putIfAbsent(mcpSessionId, new Bound(client.id()));
        List<Map.Entry<String, Bound>> mine = bound.entrySet().stream()
                .filter(e -> e.getValue().clientId.equals(client.id()))
                .sorted(java.util.Comparator.comparingLong(e -> e.getValue().lastSeen))
                .toList();
        for (int i = 0; i < mine.size() - MAX_PER_CLIENT; i++) {
            log.info("ending an MCP session: its client opened more than {}", MAX_PER_CLIENT);
            end(mine.get(i).getKey());
        }
    }

    /** True when the MCP session exists, is live, and is {@code client}'s; marks it as heard from. */
    boolean usableBy(String mcpSessionId, Client client) {
        Bound b = bound.get(mcpSessionId);
        if (b == null || !b.clientId.equals(client.id())) {
            return false;
        }
        b.lastSeen = System.nanoTime();
        return true;
    }

    void adopt(String mcpSessionId, String codeSessionId, String token) {
        Bound b = bound.get(mcpSessionId);
        if (b == null) {
            throw new IllegalStateException("the MCP session has ended");
        }
        b.codeSessions.put(codeSessionId, token);
    }

    /**
     * The code session {@code codeSessionId} if this MCP session created it and it is still open;
     * otherwise {@link SessionNotFoundException}, whatever the reason, so another MCP session's ids tell nothing.
     */
    Session open(String mcpSessionId, String codeSessionId) {
        Bound b = bound.get(mcpSessionId);
        String token = b == null || codeSessionId == null ? null : b.codeSessions.get(codeSessionId);
        if (token == null) {
            throw new SessionNotFoundException();
        }
        try {
            return sessions.open(codeSessionId, token);
        } catch (SessionNotFoundException e) {
            b.codeSessions.remove(codeSessionId); // closed or reaped meanwhile
            throw e;
        }
    }

    /** Closes one code session of this MCP session. */
    void close(String mcpSessionId, String codeSessionId) {
        Session session = open(mcpSessionId, codeSessionId);
        bound.get(mcpSessionId).codeSessions.remove(codeSessionId);
        sessions.close(session);
    }

    /** The MCP session is over: its code sessions are closed and its id is not accepted again. */
    void end(String mcpSessionId) {
        Bound b = bound.remove(mcpSessionId);
        if (b == null) {
            return;
        }
        for (Map.Entry<String, String> code : Map.copyOf(b.codeSessions).entrySet()) {
            try {
                sessions.close(sessions.open(code.getKey(), code.getValue()));
            } catch (SessionNotFoundException e) {
                // already closed or reaped
            } catch (RuntimeException e) {
                log.warn("could not close session {} of ended MCP session", code.getKey(), e);
            }
        }
    }

    void reapIdle() {
        long now = System.nanoTime();
        for (Map.Entry<String, Bound> e : List.copyOf(bound.entrySet())) {
            if (now - e.getValue().lastSeen > idleTtl.toNanos()) {
                log.info("ending an MCP session after {} without a request", idleTtl);
                end(e.getKey());
            }
        }
    }

    /**
     * The transport forgets its MCP sessions when the server stops, so their code sessions could never
     * be reached again: they are closed, workspaces and all, rather than left for nobody.
     */
    @Override
    public void close() {
        reaper.shutdownNow();
        for (String mcpSessionId : List.copyOf(bound.keySet())) {
            end(mcpSessionId);
        }
    }
}
