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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Which client each MCP session belongs to, and which code sessions it made. A code session's token
 * never leaves the server: it is kept here, under the MCP session that created the code session, so
 * no other MCP session can name it into use. An MCP session that ends (DELETE, or silent for the idle
 * TTL) closes its code sessions and is forgotten; its id is then answered like any unknown one.
 */
final class McpSessions implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(McpSessions.class);
    /** Ended ids are remembered this long, so a late request with one is refused rather than re-bound. */
    private static final int ENDED_REMEMBERED = 10_000;

    private final SessionManager sessions;
    private final Duration idleTtl;
    private final Map<String, Bound> bound = new ConcurrentHashMap<>();
    private final Set<String> ended = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService reaper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mcp-session-reaper");
        t.setDaemon(true);
        return t;
    });

    /** One MCP session: its client, when it was last heard from, and its code sessions (id to token). */
    private static final class Bound {
        final String clientId;
        final Map<String, String> codeSessions = new ConcurrentHashMap<>();
        volatile long lastSeen = System.currentTimeMillis();

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
        if (!ended.contains(mcpSessionId)) {
            bound.putIfAbsent(mcpSessionId, new Bound(client.id()));
        }
    }

    /** True when the MCP session exists, is live, and is {@code client}'s; marks it as heard from. */
    boolean usableBy(String mcpSessionId, Client client) {
        Bound b = bound.get(mcpSessionId);
        if (b == null || !b.clientId.equals(client.id())) {
            return false;
        }
        b.lastSeen = System.currentTimeMillis();
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
        if (ended.size() >= ENDED_REMEMBERED) {
            ended.clear();
        }
        ended.add(mcpSessionId);
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

    boolean ended(String mcpSessionId) {
        return ended.contains(mcpSessionId);
    }

    int codeSessionCount(String mcpSessionId) {
        Bound b = bound.get(mcpSessionId);
        return b == null ? 0 : b.codeSessions.size();
    }

    void reapIdle() {
        long cutoff = System.currentTimeMillis() - idleTtl.toMillis();
        for (Map.Entry<String, Bound> e : List.copyOf(bound.entrySet())) {
            if (e.getValue().lastSeen < cutoff) {
                log.info("ending an MCP session after {} without a request", idleTtl);
                end(e.getKey());
            }
        }
    }

    @Override
    public void close() {
        reaper.shutdownNow();
    }
}
