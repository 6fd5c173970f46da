package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.ExecuteRequest;
import dev.codeinterp.model.ExecuteResponse;
import dev.codeinterp.model.Status;
import dev.codeinterp.server.sandbox.Sandbox;
import dev.codeinterp.server.sandbox.SandboxPool;
import dev.codeinterp.server.store.EventRepository;
import dev.codeinterp.server.store.ExecutionRepository;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoredSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creates, finds, closes and reaps sessions. The database is the source of truth for which
 * sessions exist; the map holds those with a live worker. A session of a previous server
 * process comes back to life on first use with a fresh interpreter.
 */
public final class SessionManager implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SessionManager.class);

    private final SandboxPool pool;
    private final SessionRepository sessions;
    private final ExecutionRepository executions;
    private final EventRepository eventLog;
    private final ExecutionLimits limits;
    private final String runtime;
    private final Duration idleTtl;
    private final Map<String, Session> live = new ConcurrentHashMap<>();
    private final ScheduledExecutorService reaper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "session-reaper");
        t.setDaemon(true);
        return t;
    });

    public SessionManager(SandboxPool pool, SessionRepository sessions, ExecutionRepository executions,
                          EventRepository eventLog, ExecutionLimits limits, String runtime,
                          Duration idleTtl) {
        this.pool = pool;
        this.sessions = sessions;
        this.executions = executions;
        this.eventLog = eventLog;
        this.limits = limits;
        this.runtime = runtime;
        this.idleTtl = idleTtl;
    }

    /** Marks what a previous process left running as interrupted, and starts the idle reaper. */
    public void start(Duration reapInterval) {
        recoverAfterRestart();
        long every = Math.max(100, reapInterval.toMillis());
        reaper.scheduleWithFixedDelay(this::reapIdle, every, every, TimeUnit.MILLISECONDS);
    }

    /** A new session with a warm sandbox, and its token (shown once, stored only as a hash). */
    public Created create(boolean oneShot) {
        String id = Tokens.newId();
        String token = Tokens.newToken();
        long now = System.currentTimeMillis();
        sessions.insert(new StoredSession(id, Tokens.hash(token), runtime, oneShot, now, now, null));
        Session session = newSession(id, 0);
        live.put(id, session);
        try {
            session.start(true);
        } catch (RuntimeException e) {
            live.remove(id);
            sessions.markClosed(id, now);
            session.close();
            throw e;
        }
        return new Created(session, token);
    }

    public record Created(Session session, String token) {
    }

    /** The session if the token matches; otherwise {@link SessionNotFoundException}, whatever the reason. */
    public Session open(String id, String token) {
        StoredSession stored = sessions.find(id).orElseThrow(SessionNotFoundException::new);
        if (stored.closedAt() != null || !Tokens.matches(token, stored.tokenHash())) {
            throw new SessionNotFoundException();
        }
        return live.computeIfAbsent(id, this::revive);
    }

    private Session revive(String id) {
        Session session = newSession(id, eventLog.lastSeq(id));
        session.start(false);
        return session;
    }

    private Session newSession(String id, long lastSeq) {
        SessionEvents events = new SessionEvents(id, lastSeq, eventLog);
        return new Session(id, runtime, events, this::acquireSandbox, limits);
    }

    private Sandbox acquireSandbox() {
        return pool.acquire();
    }

    public void close(Session session) {
        live.remove(session.id());
        session.close();
        sessions.markClosed(session.id(), System.currentTimeMillis());
    }

    /** Runs one cell and waits for its end (the REST API's synchronous execute). */
    public ExecuteResponse execute(Session session, String code, Duration timeout) {
        return execute(session, code, timeout, List.of());
    }

    private ExecuteResponse execute(Session session, String code, Duration timeout, List<ExecuteRequest.InputFile> files) {
        ExecutionCollector collector = new ExecutionCollector();
        session.subscribe(session.lastSeq(), collector);
        try {
            collector.track(session.submit(code, timeout, files));
            // the session enforces the timeout; this bound only guards against a stuck worker
            Duration bound = timeout.plus(limits.interruptGrace()).plusSeconds(90);
            return collector.result().get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the cell", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the session did not finish the cell", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("the cell failed", e.getCause());
        } finally {
            session.unsubscribe(collector);
        }
    }

    /** A one-shot execution: a fresh sandbox for one cell, removed afterwards. */
    public ExecuteResponse executeOnce(String code, Duration timeout, List<ExecuteRequest.InputFile> files) {
        Created created = create(true);
        try {
            return execute(created.session(), code, timeout, files);
        } finally {
            close(created.session());
        }
    }

    public int liveCount() {
        return live.size();
    }

    void reapIdle() {
        long cutoff = System.currentTimeMillis() - idleTtl.toMillis();
        for (Session s : List.copyOf(live.values())) {
            if (!s.busy() && s.lastActivity() < cutoff) {
                log.info("closing session {} after {} idle", s.id(), idleTtl);
                try {
                    close(s);
                } catch (RuntimeException e) {
                    log.warn("could not close idle session {}", s.id(), e);
                }
            }
        }
    }

    private void recoverAfterRestart() {
        Map<String, List<ExecutionRepository.UnfinishedExecution>> bySession = new LinkedHashMap<>();
        for (ExecutionRepository.UnfinishedExecution u : executions.unfinished()) {
            bySession.computeIfAbsent(u.sessionId(), k -> new ArrayList<>()).add(u);
        }
        bySession.forEach((sessionId, cells) -> {
            SessionEvents events = new SessionEvents(sessionId, eventLog.lastSeq(sessionId), eventLog);
            for (ExecutionRepository.UnfinishedExecution cell : cells) {
                if (cell.wasRunning()) {
                    events.emit(cell.executionId(), new Event.Restarted("the server restarted; the interpreter's state is gone"));
                }
                events.emit(cell.executionId(), new Event.Finished(Status.INTERRUPTED, null, null, null, null));
            }
        });
        if (!bySession.isEmpty()) {
            log.info("marked cells of {} session(s) interrupted after a restart", bySession.size());
        }
    }

    @Override
    public void close() {
        reaper.shutdownNow();
        for (Session s : List.copyOf(live.values())) {
            live.remove(s.id());
            s.close();
        }
    }
}
