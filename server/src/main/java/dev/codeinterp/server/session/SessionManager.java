package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.rest.EventHistory;
import dev.codeinterp.model.rest.ExecuteRequest;
import dev.codeinterp.model.rest.ExecuteResponse;
import dev.codeinterp.model.rest.SessionState;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.sandbox.Sandbox;
import dev.codeinterp.server.sandbox.SandboxPool;
import dev.codeinterp.server.session.residency.Residency;
import dev.codeinterp.server.store.EventRepository;
import dev.codeinterp.server.store.SessionQuota;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoreException;
import dev.codeinterp.server.store.StoredSession;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Creates, opens, closes sessions and runs their cells: the one door callers use. Where a session
 * lives (suspended, resumed, revived, adopted, forked, moved, lost with its node) is
 * {@link #residency()}'s; this class wires the two over the {@link SessionCore} they share, and is the
 * only class of the session core that knows residency.
 */
public final class SessionManager implements AutoCloseable {
    /** For {@link #execute}'s caller that only wants the cell's end. */
    public static final Consumer<Event> NO_PROGRESS = event -> { };

    private final SessionCore core;
    private final SessionParts parts;
    private final SessionRepository sessions;
    private final EventRepository eventLog;
    private final LiveSessions live;
    private final Residency residency;

    public SessionManager(SessionParts parts) {
        this.core = new SessionCore(parts);
        this.parts = parts;
        this.sessions = parts.sessions();
        this.eventLog = parts.eventLog();
        this.live = core.live();
        this.residency = new Residency(core);
    }

    /** Where sessions live: suspend, fork, moves, node loss, and the start and stop of the process. */
    public Residency residency() {
        return residency;
    }

    /**
     * A new session with a warm sandbox, and its token (shown once, stored only as a hash).
     * Refused at once with {@link LimitExceededException} when admission says no.
     */
    public CreatedSession create(Client client, boolean oneShot) {
        return SandboxUnavailableException.around(() -> createHere(client, oneShot));
    }

    private CreatedSession createHere(Client client, boolean oneShot) {
        SandboxPool pool = parts.pool();
        Sandbox warm = pool.takeWarm();
        Admission.Ticket ticket;
        try {
            ticket = parts.admission().admit(client, warm == null);
        } catch (RuntimeException e) {
            if (warm != null) {
                pool.giveBack(warm);
            }
            throw e;
        }
        String id = Tokens.newSessionId(sessions.node());
        String token = Tokens.newToken();
        long now = System.currentTimeMillis();
        Session session = null;
        try {
            String tokenHash = Tokens.hash(token);
            try {
                sessions.insert(new StoredSession(id, tokenHash, parts.runtime(), oneShot, now, null, null, client.id(), sessions.node()),
                        SessionQuotas.of(client, parts.admission()));
            } catch (SessionQuota.Exceeded e) {
                throw SessionQuotas.refusal(e);
            } catch (StoreException e) {
                throw new HistoryUnavailableException(e);
            }
            session = core.newSession(id, 0, null, warm);
            warm = null; // the session owns it now, and closes it if it fails to start
            live.admitted(session, tokenHash, client.id());
            session.start(true);
            ticket.created();
            return new CreatedSession(session, token);
        } catch (RuntimeException e) {
            ticket.abandon();
            live.forget(id);
            if (!(e instanceof HistoryUnavailableException || e instanceof LimitExceededException)) {
                sessions.markClosed(id, now);
            }
            if (session != null) {
                session.close();
                core.destroyWorkspace(session);
            } else if (warm != null) {
                pool.giveBack(warm);
            }
            throw e;
        }
    }

    public Admission admission() {
        return parts.admission();
    }

    /** The session if the token matches; otherwise {@link SessionNotFoundException}, whatever the reason. */
    public Session open(String id, String token) {
        return open(id, SessionKey.token(token));
    }

    /**
     * The session if {@code key} opens it (its token, or its owner for callers that proved ownership
     * themselves), brought back to life here first when it has no worker.
     */
    public Session open(String id, SessionKey key) {
        for (int tries = 0; ; tries++) {
            if (tries > 8) { // brought back, and gone again before this caller could use it, each time
                throw new IllegalStateException("session " + id + " closed each time it was brought back");
            }
            LiveSessions.Live running = live.running(id);
            if (running != null) {
                if (!key.opens(running.tokenHash(), running.owner())) {
                    throw new SessionNotFoundException();
                }
                running.session().touch();
                return running.session();
            }
            residency.comeBack(id, key);
        }
    }

    /**
     * The stored events after {@code afterSeq} (at most {@code limit}) and the last seq of a session
     * that is not open here (lost with its node, or run by another): its history stays readable
     * from any node. Another key's or a closed session is {@link SessionNotFoundException}.
     */
    public EventHistory storedHistory(String id, SessionKey key, long afterSeq, int limit) {
        core.openRow(id, key);
        return new EventHistory(id, eventLog.after(id, afterSeq, limit), eventLog.lastSeq(id));
    }

    /**
     * What {@code GET /api/v1/sessions/{id}} says: running, suspended or lost, created and last used,
     * for the holder of {@code key} (its token, or its owner). Asking does not resume it. Any other key's or closed session is {@link SessionNotFoundException}.
     */
    public SessionState describe(String id, SessionKey key) {
        StoredSession stored = core.openRow(id, key);
        if (stored.lost() != null) {
            return new SessionState(id, stored.runtime(), SessionState.LOST,
                    stored.createdAt(), stored.suspended() ? stored.suspension().lastActiveAt() : stored.createdAt());
        }
        LiveSessions.Live running = live.running(id);
        if (running != null || !stored.suspended()) {
            long lastActive = running != null ? running.session().lastActivity() : stored.createdAt();
            return new SessionState(id, stored.runtime(), SessionState.RUNNING, stored.createdAt(), lastActive);
        }
        return new SessionState(id, stored.runtime(), SessionState.SUSPENDED, stored.createdAt(), stored.suspension().lastActiveAt());
    }

    /** Who owns the session, for quotas: its client's id. */
    public String owner(Session session) {
        LiveSessions.Live entry = live.get(session.id());
        if (entry == null || entry.session() != session) {
            throw new SessionNotFoundException();
        }
        return entry.owner();
    }

    /** Ends the session: its interpreter and its workspace with every file in it. */
    public void close(Session session) {
        residency.close(session);
    }

    /** What cells may ask for; every way in builds its cells here. */
    public CellLimits cellLimits() {
        return parts.cellLimits();
    }

    /**
     * Runs one cell and waits for its end (the REST API's synchronous execute); {@code progress} sees
     * each of the cell's events as it comes ({@link #NO_PROGRESS} for a caller that only wants the end).
     */
    public ExecuteResponse execute(Session session, Cell cell, Consumer<Event> progress) {
        ExecutionCollector collector = new ExecutionCollector(progress);
        session.subscribe(session.lastSeq(), collector);
        try {
            try {
                collector.track(session.submit(cell));
            } catch (SessionClosedException e) {
                throw residency.whereItWent(session.id(), e);
            }
            // the session enforces the timeout; this bound only guards against a stuck worker
            InstallStep installs = parts.installs();
            Duration bound = cell.timeout().plus(parts.limits().interruptGrace()).plusSeconds(90)
                    .plus(installs.extraWait(installs.check(cell.language(), cell.packages())));
            long deadline = System.nanoTime() + bound.toNanos();
            while (true) {
                try {
                    return collector.result().get(Math.min(1_000, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)),
                            TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    residency.refuseIfDropped(session);
                    if (System.nanoTime() >= deadline) {
                        throw e;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the cell", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the session did not finish the cell", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the cell failed", e.getCause());
        } finally {
            session.unsubscribe(collector);
        }
    }

    /**
     * A one-shot execution: a fresh sandbox for one cell with {@code files} (names already checked)
     * in its workspace, answering with the files the code created or changed, up to
     * {@code maxReturnedBytes} of content in all ({@code howToGetThem} ends the note on a file past
     * it); everything is removed afterwards. The cell's packages are checked before a sandbox is
     * taken, so a refused one costs nothing.
     */
    public ExecuteResponse executeOnce(Client client, Cell cell, List<ExecuteRequest.InputFile> files, long maxReturnedBytes,
                                       String howToGetThem, Consumer<Event> progress) {
        parts.installs().check(cell.language(), cell.packages());
        Session session = create(client, true).session();
        try {
            Workspace workspace = session.workspace();
            for (ExecuteRequest.InputFile file : files) {
                byte[] content = Base64.getDecoder().decode(file.contentBase64());
                workspace.write(file.name(), new ByteArrayInputStream(content), content.length);
            }
            Map<String, Workspace.Stamp> before = workspace.snapshot();
            ExecuteResponse response = execute(session, cell, progress);
            return response.withFiles(ReturnedFiles.since(workspace, before, maxReturnedBytes, howToGetThem));
        } finally {
            close(session);
        }
    }

    /** This node's open sessions, running or suspended, by id: what a drain moves. */
    public List<String> ownIds() {
        return sessions.openIds();
    }

    public int liveCount() {
        return live.size();
    }

    /** The server stops: its sessions are left running for the next process ({@link Residency#close}). */
    @Override
    public void close() {
        residency.close();
    }
}
