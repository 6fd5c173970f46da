package dev.codeinterp.server.session.residency;

import dev.codeinterp.model.health.Health;
import dev.codeinterp.server.session.Admission;
import dev.codeinterp.server.session.CheckpointUnavailableException;
import dev.codeinterp.server.session.Client;
import dev.codeinterp.server.session.CreatedSession;
import dev.codeinterp.server.session.LiveSessions;
import dev.codeinterp.server.session.SandboxUnavailableException;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.session.SessionBusyException;
import dev.codeinterp.server.session.SessionClosedException;
import dev.codeinterp.server.session.SessionCore;
import dev.codeinterp.server.session.SessionElsewhereException;
import dev.codeinterp.server.session.SessionKey;
import dev.codeinterp.server.session.SessionLostException;
import dev.codeinterp.server.session.SessionNotFoundException;
import dev.codeinterp.server.session.SessionParts;
import dev.codeinterp.server.session.SessionQuotas;
import dev.codeinterp.server.session.Tokens;
import dev.codeinterp.server.store.SessionQuota;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoredSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where a session lives: running here with a worker, suspended to disk, on another node, or lost with
 * one. The database is the source of truth for which sessions exist; the live map holds those with a
 * worker. When the server stops, sessions let go of their sandboxes and leave them running; the next
 * process adopts them at start ({@link SessionAdoption}), variables and running cells included. A
 * session whose sandbox is gone comes back to life on first use with a fresh interpreter, and its
 * next cell says so. One change of place at a time per session ({@link SessionTransitions}).
 */
public final class Residency implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Residency.class);

    private final SessionCore core;
    private final SessionParts parts;
    private final SessionRepository sessions;
    private final LiveSessions live;
    private final Suspensions suspensions;
    private final Forks forks;
    private final SessionTransitions transitions = new SessionTransitions();
    private final Comebacks comebacks;
    private final SessionMoves moves;
    private final IdleReaper reaper;

    public Residency(SessionCore core) {
        this.core = core;
        this.parts = core.parts();
        this.sessions = parts.sessions();
        this.live = core.live();
        this.suspensions = new Suspensions(parts.suspend().folder(), parts.pool(), parts.workspaces(), sessions,
                parts.suspend().keptFor(), parts.suspend().diskBudget());
        this.forks = new Forks(parts.suspend().folder(), parts.pool(), parts.workspaces(), parts.forkStore());
        this.comebacks = new Comebacks(core, transitions, suspensions);
        this.moves = new SessionMoves(live, transitions, suspensions, sessions, parts.workspaces(), this::keepsVariables,
                comebacks::bringBack);
        // asked on every beat, not once: an engine that was down at start may checkpoint later
        this.reaper = new IdleReaper(this::idleAfter, live::sessions, this::idleFor, this::evictSuspended);
    }

    /** What becomes of idle sessions here: suspended with their variables after a while, or closed (and why). */
    public Health.Idle idle() {
        return new Health.Idle(keepsVariables(), idleAfter().toSeconds(), suspensions.support().why());
    }

    private Duration idleAfter() {
        return keepsVariables() ? parts.suspend().after() : parts.idleTtl();
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
    public Set<String> start(Duration reapInterval, boolean adoptSandboxes) {
        Map<String, SessionAdoption.Adopted> adopted = adoptSandboxes
                ? new SessionAdoption(sessions, parts.executions(), parts.pool(), parts.workspaces()).adoptAll() : Map.of();
        adopted.values().forEach(comebacks::adopt);
        CrashRecovery.interruptUnfinished(parts.executions(), parts.eventLog(), sessions.node(), adopted.keySet());
        suspensions.sweep();
        int removed = parts.workspaces().retainOnly(sessions.openWorkspaces());
        if (removed > 0) {
            log.info("removed {} workspace(s) no open session owns", removed);
        }
        reaper.start(reapInterval);
        return adopted.values().stream().map(a -> a.sandbox().id()).collect(Collectors.toSet());
    }

    /**
     * Suspends the session now: its interpreter and files to disk, its container removed; the next
     * use brings it back. {@link SessionBusyException} while a cell waits or runs; a
     * {@link SandboxUnavailableException} when this runtime cannot checkpoint or writing failed (the
     * session then goes on as it was).
     */
    public void suspend(Session session) {
        SandboxUnavailableException.around(() -> suspendHere(session));
    }

    private void suspendHere(Session session) {
        if (!keepsVariables()) {
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
            session.suspend((sandbox, workspace) -> suspensions.park(session.id(), sandbox, workspace, lastActive));
            live.release(entry);
            suspensions.evict(System.currentTimeMillis());
        }
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

    /**
     * A new session with {@code source}'s variables, a copy of its files and its history so far; both
     * go on independently. It belongs to {@code owner} (the source's client) and counts against its
     * quota. {@link CheckpointUnavailableException} where interpreters cannot be copied here,
     * {@link SessionBusyException} while a cell of the source waits or runs, a
     * {@link dev.codeinterp.server.session.LimitExceededException} when admission says no.
     */
    public CreatedSession fork(Session source, Client owner) {
        return SandboxUnavailableException.around(() -> forkHere(source, owner));
    }

    private CreatedSession forkHere(Session source, Client owner) {
        if (!keepsVariables()) {
            throw new CheckpointUnavailableException("this server cannot fork sessions: " + suspensions.support().why());
        }
        Admission.Ticket ticket = parts.admission().admit(owner, true);
        String id = Tokens.newSessionId(sessions.node());
        String token = Tokens.newToken();
        String tokenHash = Tokens.hash(token);
        Forks.Forked forked;
        try {
            forked = forks.fork(source, new StoredSession(id, tokenHash, parts.runtime(), false, System.currentTimeMillis(), null, null,
                    owner.id(), sessions.node()), SessionQuotas.of(owner, parts.admission()));
        } catch (SessionQuota.Exceeded e) {
            ticket.abandon();
            throw SessionQuotas.refusal(e);
        } catch (RuntimeException e) {
            ticket.abandon();
            throw e;
        }
        Session session = core.newSession(id, forked.lastSeq(), forked.workspace(), null);
        if (forked.sandbox() != null) {
            session.adopt(forked.sandbox(), null, parts.cellLimits().defaultTimeout(), List.of());
        }
        live.admitted(session, tokenHash, owner.id());
        session.start(false);
        ticket.created();
        log.info("session {} forked from {}", id, source.id());
        return new CreatedSession(session, token);
    }

    /** For a caller that found session {@code id} without a worker here: see {@link Comebacks#comeBack}; it then looks again. */
    public void comeBack(String id, SessionKey key) {
        SandboxUnavailableException.around(() -> comebacks.comeBack(id, key));
    }

    /** Sessions leaving for another node and arriving from one. */
    public SessionMoves moves() {
        return moves;
    }

    /**
     * A session dropped while its caller waits for a cell (its node was marked lost by the others,
     * who ended the cell in the store): the caller hears why at once, not when its wait runs out.
     */
    public void refuseIfDropped(Session session) {
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
    public RuntimeException whereItWent(String id, SessionClosedException closed) {
        transitions.awaitAny(id);
        StoredSession stored = sessions.find(id).orElse(null);
        if (stored != null && stored.closedAt() == null) {
            try {
                core.refuseIfNotHere(stored);
            } catch (SessionLostException | SessionElsewhereException e) {
                return e;
            }
        }
        return closed;
    }

    /** Ends the session for good: with what {@link SessionCore#close} ends, whatever it kept on disk while suspended. */
    public void close(Session session) {
        core.close(session);
        suspensions.discard(session.id());
    }

    /** Closes a session lost with its node (nothing of it runs anywhere): its row only. */
    public void closeLost(String id, SessionKey key) {
        if (core.openRow(id, key).lost() == null) {
            throw new SessionNotFoundException();
        }
        sessions.markClosed(id, System.currentTimeMillis());
    }

    /** Another node was lost: each cell it left queued or running ends once, a running one saying why (by the node that marked it). */
    public void nodeLost(String node) {
        int ended = CrashRecovery.endUnfinished(parts.executions(), parts.eventLog(), node, Set.of(), "the node running this session ("
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

    /**
     * The server stops: every session lets go of its sandbox and leaves it running, its variables and
     * any running cell in it, for the next process to adopt ({@link #start}).
     */
    @Override
    public void close() {
        reaper.close();
        comebacks.close();
        for (Session s : live.sessions()) {
            live.forget(s.id());
            s.detach();
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
