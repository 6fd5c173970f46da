package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.rest.ExecuteRequest;
import dev.codeinterp.model.rest.ExecuteResponse;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.files.Workspaces;
import dev.codeinterp.server.metrics.ServerMetrics;
import dev.codeinterp.server.sandbox.Sandbox;
import dev.codeinterp.server.sandbox.SandboxPool;
import dev.codeinterp.server.store.EventRepository;
import dev.codeinterp.server.store.ExecutionRepository;
import dev.codeinterp.server.store.SessionForks;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.model.Limit;
import dev.codeinterp.server.store.SessionQuota;
import dev.codeinterp.server.store.StoreException;
import dev.codeinterp.server.store.StoredSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Creates, finds, closes and reaps sessions. The database is the source of truth for which
 * sessions exist; the map holds those with a live worker. When the server stops, sessions let go
 * of their sandboxes and leave them running; the next process adopts them at start
 * ({@link SessionAdoption}), variables and running cells included. A session whose sandbox is gone
 * comes back to life on first use with a fresh interpreter, and its next cell says so.
 */
public final class SessionManager implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SessionManager.class);
    /** For {@link #execute}'s caller that only wants the cell's end. */
    public static final Consumer<Event> NO_PROGRESS = event -> { };

    private final SandboxPool pool;
    private final Workspaces workspaces;
    private final SessionRepository sessions;
    private final ExecutionRepository executions;
    private final EventRepository eventLog;
    private final ExecutionLimits limits;
    private final CellLimits cellLimits;
    private final String runtime;
    private final LiveSessions live;
    private final Admission admission;
    private final FileLinks links;
    private final ServerMetrics metrics;
    private final CellActivity activity;
    private final IdleReaper reaper;
    private final InstallStep installs;
    private final Suspensions suspensions;
    private final Forks forks;
    private final Duration suspendAfter;
    private final Duration idleTtl;
    private final SessionTransitions transitions = new SessionTransitions();
    private final SessionMoves moves;
    private final java.util.concurrent.ExecutorService bringingBack = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "session-resume");
        t.setDaemon(true);
        return t;
    });

    /**
     * {@code links} says where the API serves workspace files, for the artifact events; {@code installs}
     * serves the cells' {@code packages}; {@code activity} hears of every event (the pool refills in the quiet).
     */
    public SessionManager(SandboxPool pool, Workspaces workspaces, SessionRepository sessions, ExecutionRepository executions,
                          EventRepository eventLog, ExecutionLimits limits, CellLimits cellLimits, String runtime,
                          Duration idleTtl, Admission admission, FileLinks links, ServerMetrics metrics, InstallStep installs,
                          CellActivity activity, SuspendPolicy suspend, SessionForks forkStore) {
        this.cellLimits = cellLimits;
        this.activity = activity;
        this.installs = installs;
        this.admission = admission;
        this.live = new LiveSessions(admission);
        this.links = links;
        this.metrics = metrics;
        this.pool = pool;
        this.workspaces = workspaces;
        this.sessions = sessions;
        this.executions = executions;
        this.eventLog = eventLog;
        this.limits = limits;
        this.runtime = runtime;
        this.suspensions = new Suspensions(suspend.folder(), pool, workspaces, sessions, suspend.keptFor(), suspend.diskBudget());
        this.forks = new Forks(suspend.folder(), pool, workspaces, forkStore);
        this.suspendAfter = suspend.after();
        this.idleTtl = idleTtl;
        this.moves = new SessionMoves(live, transitions, suspensions, sessions, workspaces, this::keepsVariables, this::bringBack);
        // asked on every beat, not once: an engine that was down at start may checkpoint later
        this.reaper = new IdleReaper(() -> keepsVariables() ? suspendAfter : idleTtl,
                live::sessions, this::idleFor, this::evictSuspended);
    }

    /** What becomes of idle sessions here: suspended with their variables after a while, or closed (and why). */
    public dev.codeinterp.model.health.Health.Idle idle() {
        boolean keeps = keepsVariables();
        return new dev.codeinterp.model.health.Health.Idle(keeps, (keeps ? suspendAfter : idleTtl).toSeconds(), suspensions.support().why());
    }

    private boolean keepsVariables() {
        return suspensions.support().supported();
    }

    /** Where variables can be kept, an idle session is suspended; elsewhere it is closed, as it always was. */
    private void idleFor(Session session) {
        if (keepsVariables()) {
            suspendIdle(session);
        } else {
            close(session);
        }
    }

    private void evictSuspended() {
        if (keepsVariables()) {
            suspensions.evict(System.currentTimeMillis());
        }
    }

    /**
     * Adopts the sandboxes a previous process left running for its sessions, marks the cells it left
     * unfinished in sessions it could not adopt as interrupted, removes workspaces no open session
     * owns (a previous process's pool, sessions closed while it was down), and starts the idle
     * reaper. Returns the containers adopted: every other one of the previous process is garbage.
     * With {@code adoptSandboxes} false (no engine answers) nothing is adopted.
     */
    public java.util.Set<String> start(Duration reapInterval, boolean adoptSandboxes) {
        Map<String, SessionAdoption.Adopted> adopted = adoptSandboxes
                ? new SessionAdoption(sessions, executions, pool, workspaces).adoptAll() : Map.of();
        adopted.values().forEach(this::adopt);
        CrashRecovery.interruptUnfinished(executions, eventLog, sessions.node(), adopted.keySet());
        suspensions.sweep();
        int removed = workspaces.retainOnly(sessions.openWorkspaces());
        if (removed > 0) {
            log.info("removed {} workspace(s) no open session owns", removed);
        }
        reaper.start(reapInterval);
        return adopted.values().stream().map(a -> a.sandbox().id()).collect(java.util.stream.Collectors.toSet());
    }

    /** A session whose sandbox, left running by the previous process, is attached again: it goes on where it was. */
    private void adopt(SessionAdoption.Adopted a) {
        StoredSession stored = a.stored();
        Session session = newSession(stored.id(), eventLog.lastSeq(stored.id()), a.sandbox().workspace(), null);
        session.adopt(a.sandbox(), a.runningCell(), cellLimits.defaultTimeout(), a.waitingCells());
        session.start(false);
        live.back(stored, session);
    }

    /**
     * A new session with a warm sandbox, and its token (shown once, stored only as a hash).
     * Refused at once with {@link LimitExceededException} when admission says no.
     */
    public Created create(Client client, boolean oneShot) {
        Sandbox warm = pool.takeWarm();
        Admission.Ticket ticket;
        try {
            ticket = admission.admit(client, warm == null);
        } catch (RuntimeException e) {
            if (warm != null) {
                pool.giveBack(warm);
            }
            throw e;
        }
        String id = Tokens.newId(sessions.node());
        String token = Tokens.newToken();
        long now = System.currentTimeMillis();
        Session session = null;
        try {
            String tokenHash = Tokens.hash(token);
            try {
                sessions.insert(new StoredSession(id, tokenHash, runtime, oneShot, now, null, null, client.id(), sessions.node()),
                        quotaOf(client));
            } catch (SessionQuota.Exceeded e) {
                throw refusal(e);
            } catch (StoreException e) {
                throw new HistoryUnavailableException(e);
            }
            session = newSession(id, 0, null, warm);
            warm = null; // the session owns it now, and closes it if it fails to start
            live.admitted(session, tokenHash, client.id());
            session.start(true);
            ticket.created();
            return new Created(session, token);
        } catch (RuntimeException e) {
            ticket.abandon();
            live.forget(id);
            if (!(e instanceof HistoryUnavailableException || e instanceof LimitExceededException)) {
                sessions.markClosed(id, now);
            }
            if (session != null) {
                session.close();
                destroyWorkspace(session);
            } else if (warm != null) {
                pool.giveBack(warm);
            }
            throw e;
        }
    }

    public Admission admission() {
        return admission;
    }

    /** The client's quota and MAX_SESSIONS, as the store counts them across every node. */
    private SessionQuota quotaOf(Client client) {
        return new SessionQuota(client.maxSessions(), admission.limits().maxSessions());
    }

    /** A limit the store found passed (other nodes' sessions count too), said as admission says it. */
    private static LimitExceededException refusal(SessionQuota.Exceeded e) {
        return e.over() == SessionQuota.Over.CLIENT
                ? new LimitExceededException(Limit.SESSIONS_PER_CLIENT, Admission.RETRY_QUOTA_S, "this client has " + e.count()
                        + " sessions open in the cluster, its limit; close one (DELETE /api/v1/sessions/{id}) or let it idle out")
                : new LimitExceededException(Limit.SESSIONS, Admission.RETRY_FULL_S, "the cluster is full: " + e.count()
                        + " sessions are open, its limit; try again later");
    }

    public record Created(Session session, String token) {
    }

    /** The session if the token matches; otherwise {@link SessionNotFoundException}, whatever the reason. */
    public Session open(String id, String token) {
        return open(id, SessionKey.token(token));
    }

    /** The session if {@code key} opens it (its token, or its owner for callers that proved ownership themselves). */
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
            if (transitions.awaitAny(id)) {
                continue;
            }
            refuseIfNotHere(openRow(id, key));
            java.util.concurrent.CompletableFuture<Void> back = bringBack(id);
            if (back == null) {
                continue; // someone else brings it back, or moves it: wait for them
            }
            try {
                back.get(5, TimeUnit.MINUTES);
            } catch (java.util.concurrent.ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the session was brought back (it goes on)", e);
            } catch (TimeoutException e) {
                throw new IllegalStateException("the session was not brought back within 5 minutes", e);
            }
        }
    }

    /**
     * Brings this node's session {@code id} back to life (resumed, or revived with a fresh interpreter),
     * off the caller's thread: a caller that gives up (its request timed out and its thread was
     * interrupted) must not cut a restore short and cost the session its variables. Null when another
     * caller already brings it back or moves it.
     */
    private java.util.concurrent.CompletableFuture<Void> bringBack(String id) {
        SessionTransitions.Transition back = transitions.begin(id);
        if (back == null) {
            return null;
        }
        bringingBack.execute(() -> {
            try {
                if (live.running(id) == null) {
                    StoredSession now = sessions.find(id).orElseThrow(SessionNotFoundException::new); // as of holding the transition
                    if (now.closedAt() != null) {
                        throw new SessionNotFoundException();
                    }
                    refuseIfNotHere(now); // moved away meanwhile
                    if (now.suspended()) {
                        resume(now);
                    } else {
                        revive(now);
                    }
                }
            } catch (RuntimeException e) {
                back.fail(e);
            } finally {
                back.close();
            }
        });
        return back.ended();
    }

    /** Sessions leaving for another node and arriving from one. */
    public SessionMoves moves() {
        return moves;
    }

    /**
     * The stored events after {@code afterSeq} (at most {@code limit}) and the last seq of a session
     * that is not open here (lost with its node, or run by another): its history stays readable
     * from any node. Another key's or a closed session is {@link SessionNotFoundException}.
     */
    public dev.codeinterp.model.rest.EventHistory storedHistory(String id, SessionKey key, long afterSeq, int limit) {
        openRow(id, key);
        return new dev.codeinterp.model.rest.EventHistory(id, eventLog.after(id, afterSeq, limit), eventLog.lastSeq(id));
    }

    /** Closes a session lost with its node (nothing of it runs anywhere): its row only. */
    public void closeLost(String id, SessionKey key) {
        if (openRow(id, key).lost() == null) {
            throw new SessionNotFoundException();
        }
        sessions.markClosed(id, System.currentTimeMillis());
    }

    /** The stored row of an open session {@code key} opens; anything else is {@link SessionNotFoundException}, whatever the reason. */
    private StoredSession openRow(String id, SessionKey key) {
        StoredSession stored = sessions.find(id).orElseThrow(SessionNotFoundException::new);
        if (stored.closedAt() != null || !key.opens(stored.tokenHash(), stored.client())) {
            throw new SessionNotFoundException();
        }
        return stored;
    }

    /** A session lost with its node, or run by another node, is not brought back here: the caller hears which. */
    private void refuseIfNotHere(StoredSession stored) {
        if (stored.lost() != null) {
            throw new SessionLostException(stored.lost());
        }
        if (stored.node() != null && sessions.node() != null && !stored.node().equals(sessions.node())) {
            throw new SessionElsewhereException(stored.node());
        }
    }

    /**
     * What {@code GET /api/v1/sessions/{id}} says: running, suspended or lost, created and last used,
     * for the holder of {@code key} (its token, or its owner). Asking does not resume it. Any other key's or closed session is {@link SessionNotFoundException}.
     */
    public dev.codeinterp.model.rest.SessionState describe(String id, SessionKey key) {
        StoredSession stored = openRow(id, key);
        if (stored.lost() != null) {
            return new dev.codeinterp.model.rest.SessionState(id, stored.runtime(), dev.codeinterp.model.rest.SessionState.LOST,
                    stored.createdAt(), stored.suspended() ? stored.suspension().lastActiveAt() : stored.createdAt());
        }
        LiveSessions.Live running = live.running(id);
        if (running != null || !stored.suspended()) {
            long lastActive = running != null ? running.session().lastActivity() : stored.createdAt();
            return new dev.codeinterp.model.rest.SessionState(id, stored.runtime(), dev.codeinterp.model.rest.SessionState.RUNNING,
                    stored.createdAt(), lastActive);
        }
        return new dev.codeinterp.model.rest.SessionState(id, stored.runtime(), dev.codeinterp.model.rest.SessionState.SUSPENDED,
                stored.createdAt(), stored.suspension().lastActiveAt());
    }

    /**
     * Suspends the session now: its interpreter and files to disk, its container removed; the next
     * use brings it back. {@link SessionBusyException} while a cell waits or runs; a
     * {@link dev.codeinterp.server.sandbox.SandboxException} when this runtime cannot checkpoint or
     * writing failed (the session then goes on as it was).
     */
    public void suspend(Session session) {
        if (!suspensions.support().supported()) {
            throw new CheckpointUnavailableException("this server cannot suspend sessions: " + suspensions.support().why());
        }
        SessionTransitions.Transition suspension = transitions.begin(session.id());
        if (suspension == null) {
            throw new SessionBusyException();
        }
        try (suspension) {
            LiveSessions.Live entry = live.get(session.id());
            if (entry == null || entry.session() != session) {
                return; // already suspended or closed
            }
            long lastActive = session.lastActivity();
            Session.await(session.suspend((sandbox, workspace) -> suspensions.park(session.id(), sandbox, workspace, lastActive)),
                    "suspended");
            live.release(entry);
            suspensions.evict(System.currentTimeMillis());
        }
    }

    /** Who owns the session, for quotas: its client's id. */
    public String owner(Session session) {
        LiveSessions.Live entry = live.get(session.id());
        if (entry == null || entry.session() != session) {
            throw new SessionNotFoundException();
        }
        return entry.owner();
    }

    /**
     * A new session with {@code source}'s variables, a copy of its files and its history so far; both
     * go on independently. It belongs to {@code owner} (the source's client) and counts against its
     * quota. {@link CheckpointUnavailableException} where interpreters cannot be copied here,
     * {@link SessionBusyException} while a cell of the source waits or runs, {@link LimitExceededException}
     * when admission says no.
     */
    public Created fork(Session source, Client owner) {
        if (!keepsVariables()) {
            throw new CheckpointUnavailableException("this server cannot fork sessions: " + suspensions.support().why());
        }
        Admission.Ticket ticket = admission.admit(owner, true);
        String id = Tokens.newId(sessions.node());
        String token = Tokens.newToken();
        String tokenHash = Tokens.hash(token);
        Forks.Forked forked;
        try {
            forked = forks.fork(source, new StoredSession(id, tokenHash, runtime, false, System.currentTimeMillis(), null, null,
                    owner.id(), sessions.node()), quotaOf(owner));
        } catch (SessionQuota.Exceeded e) {
            ticket.abandon();
            throw refusal(e);
        } catch (RuntimeException e) {
            ticket.abandon();
            throw e;
        }
        Session session = newSession(id, forked.lastSeq(), forked.workspace(), null);
        if (forked.sandbox() != null) {
            session.adopt(forked.sandbox(), null, cellLimits.defaultTimeout(), List.of());
        }
        live.admitted(session, tokenHash, owner.id());
        session.start(false);
        ticket.created();
        log.info("session {} forked from {}", id, source.id());
        return new Created(session, token);
    }

    /** The idle timer's way: a session that turns out busy, or fails to write, stays as it is. */
    private void suspendIdle(Session session) {
        try {
            suspend(session);
            log.info("suspended idle session {}", session.id());
        } catch (SessionBusyException e) {
            log.debug("session {} became busy; not suspended", session.id());
        } catch (RuntimeException e) {
            log.warn("could not suspend idle session {}: {}", session.id(), e.getMessage());
        }
    }

    /** A suspended session brought back: its files, its interpreter from disk when kept, and a {@code resumed} event. */
    private void resume(StoredSession stored) {
        long t0 = System.nanoTime();
        Suspensions.Resumed back = suspensions.resume(stored);
        Session session = newSession(stored.id(), eventLog.lastSeq(stored.id()), back.workspace(), null);
        if (back.sandbox() != null) {
            session.adopt(back.sandbox(), null, cellLimits.defaultTimeout(), List.of());
        } else if (back.variablesLost() != null) {
            session.interpreterLost(back.variablesLost());
        }
        session.start(false);
        if (back.sandbox() != null) {
            session.resumed((System.nanoTime() - t0) / 1_000_000);
        }
        live.back(stored, session);
    }

    /** A session of an earlier process: its workspace (files kept unless the host rebooted) and a fresh interpreter. */
    private void revive(StoredSession stored) {
        Workspace workspace;
        if (stored.workspace() != null) {
            workspace = workspaces.open(stored.workspace());
        } else {
            workspace = workspaces.create();
            sessions.setWorkspace(stored.id(), workspace.id());
        }
        Session session = newSession(stored.id(), eventLog.lastSeq(stored.id()), workspace, null);
        if (stored.sandbox() != null) {
            session.interpreterLost("the server restarted and this session's sandbox did not survive it (the engine restarted, "
                    + "or the sandbox stopped): its variables are gone, its files are kept");
        }
        session.start(false);
        live.back(stored, session);
    }

    /** {@code first}: a warm sandbox already taken for this session, used for its first interpreter, or null. */
    private Session newSession(String id, long lastSeq, Workspace workspace, Sandbox first) {
        SessionEvents events = new SessionEvents(id, lastSeq, eventLog, e -> {
            metrics.eventEmitted(e);
            activity.record(e);
        });
        java.util.concurrent.atomic.AtomicReference<Sandbox> taken = new java.util.concurrent.atomic.AtomicReference<>(first);
        SandboxSource source = new SandboxSource() {
            @Override
            public Sandbox fresh() {
                Sandbox mine = taken.getAndSet(null);
                return mine != null ? mine : pool.acquire();
            }

            @Override
            public Sandbox on(Workspace existing) {
                return pool.startFor(existing);
            }
        };
        return new Session(id, runtime, events, source, workspace, adopted -> sessions.setWorkspace(id, adopted.id()),
                sandbox -> sessions.setSandbox(id, sandbox.id()), limits, links, installs);
    }

    /** Ends the session: its interpreter and its workspace with every file in it. */
    public void close(Session session) {
        live.release(session);
        session.close();
        sessions.markClosed(session.id(), System.currentTimeMillis());
        destroyWorkspace(session);
        suspensions.discard(session.id());
    }

    private void destroyWorkspace(Session session) {
        Workspace workspace = session.workspace();
        if (workspace != null) {
            workspaces.destroy(workspace);
        }
    }

    /** What cells may ask for; every way in builds its cells here. */
    public CellLimits cellLimits() {
        return cellLimits;
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
                throw whereItWent(session.id(), e);
            }
            // the session enforces the timeout; this bound only guards against a stuck worker
            Duration bound = cell.timeout().plus(limits.interruptGrace()).plusSeconds(90)
                    .plus(installs.extraWait(installs.check(cell.language(), cell.packages())));
            long deadline = System.nanoTime() + bound.toNanos();
            while (true) {
                try {
                    return collector.result().get(Math.min(1_000, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)),
                            TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    refuseIfDropped(session);
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
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("the cell failed", e.getCause());
        } finally {
            session.unsubscribe(collector);
        }
    }

    /**
     * A session dropped while its caller waits for a cell (its node was marked lost by the others,
     * who ended the cell in the store): the caller hears why at once, not when its wait runs out.
     */
    private void refuseIfDropped(Session session) {
        if (session.closed() && live.get(session.id()) == null && !transitions.underway(session.id())) {
            StoredSession stored = sessions.find(session.id()).orElse(null);
            if (stored != null && stored.lost() != null) {
                throw new SessionLostException(stored.lost());
            }
        }
    }

    /**
     * Why a session opened a moment ago took no cell: it closed, or it is moving away, in which case
     * the caller waits for the move and hears where it went ({@link SessionElsewhereException}: the
     * request goes on there) or, when it stayed, that it was suspended here ({@code closed} as it was).
     */
    private RuntimeException whereItWent(String id, SessionClosedException closed) {
        transitions.awaitAny(id);
        StoredSession stored = sessions.find(id).orElse(null);
        if (stored != null && stored.closedAt() == null) {
            try {
                refuseIfNotHere(stored);
            } catch (SessionLostException | SessionElsewhereException e) {
                return e;
            }
        }
        return closed;
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
        installs.check(cell.language(), cell.packages());
        Created created = create(client, true);
        Session session = created.session();
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

    /**
     * The server stops: every session lets go of its sandbox and leaves it running, its variables and
     * any running cell in it, for the next process to adopt ({@link #start}).
     */
    @Override
    public void close() {
        reaper.close();
        bringingBack.shutdown();
        for (Session s : live.sessions()) {
            live.forget(s.id());
            s.detach();
        }
    }

    /**
     * Another node was lost: each cell it left queued or running ends once, in its session's log, and
     * a running one says why. Called by the one node that marked it lost.
     */
    public void nodeLost(String node) {
        int ended = CrashRecovery.endUnfinished(executions, eventLog, node, java.util.Set.of(), "the node running this session ("
                + node + ") was lost, with its sandbox: the interpreter's state is gone");
        log.warn("node {} was lost: its sessions can no longer run (history stays); cells ended in {} of them", node, ended);
    }

    /**
     * This node was marked lost by the others (unheard too long, say the store was out of reach): its
     * sessions are lost and their cells were ended by whoever marked it. Each session here lets go and
     * its sandbox is removed, storing nothing, so nothing is owned twice.
     */
    public void disowned() {
        for (LiveSessions.Live l : live.all()) {
            live.release(l);
            l.session().drop();
        }
    }

    /** The server stops for good (its data directory is discarded): every session's sandbox is removed. */
    public void closeRemovingSandboxes() {
        reaper.close();
        for (Session s : live.sessions()) {
            live.forget(s.id());
            s.close();
        }
    }
}
