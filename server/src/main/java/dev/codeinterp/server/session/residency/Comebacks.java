package dev.codeinterp.server.session.residency;

import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.session.LiveSessions;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.session.SessionCore;
import dev.codeinterp.server.session.SessionElsewhereException;
import dev.codeinterp.server.session.SessionKey;
import dev.codeinterp.server.session.SessionLostException;
import dev.codeinterp.server.session.SessionNotFoundException;
import dev.codeinterp.server.session.SessionParts;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoredSession;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sessions of this node given a worker again: adopted at start (their sandbox survived the previous
 * process), resumed from disk (suspended), or revived with a fresh interpreter on their files (their
 * sandbox is gone), each brought back off the caller's thread, one change at a time per session.
 */
final class Comebacks implements AutoCloseable {
    private final SessionCore core;
    private final SessionParts parts;
    private final SessionRepository sessions;
    private final LiveSessions live;
    private final SessionTransitions transitions;
    private final Suspensions suspensions;
    private final ExecutorService bringingBack = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "session-resume");
        t.setDaemon(true);
        return t;
    });

    Comebacks(SessionCore core, SessionTransitions transitions, Suspensions suspensions) {
        this.core = core;
        this.parts = core.parts();
        this.sessions = parts.sessions();
        this.live = core.live();
        this.transitions = transitions;
        this.suspensions = suspensions;
    }

    /** A session whose sandbox, left running by the previous process, is attached again: it goes on where it was. */
    void adopt(SessionAdoption.Adopted a) {
        StoredSession stored = a.stored();
        Session session = core.newSession(stored.id(), parts.eventLog().lastSeq(stored.id()), a.sandbox().workspace(), null);
        session.adopt(a.sandbox(), a.runningCell(), parts.cellLimits().defaultTimeout(), a.waitingCells());
        session.start(false);
        live.back(stored, session);
    }

    /**
     * For a caller that found session {@code id} without a worker here: waits for a change of place
     * under way, or brings the session back (resumed, or revived with a fresh interpreter) if
     * {@code key} opens it; the caller then looks again. {@link SessionLostException} or
     * {@link SessionElsewhereException} when it is not this node's to bring back.
     */
    void comeBack(String id, SessionKey key) {
        if (transitions.awaitAny(id)) {
            return;
        }
        core.refuseIfNotHere(core.openRow(id, key));
        CompletableFuture<Void> back = bringBack(id);
        if (back == null) {
            return; // someone else brings it back, or moves it: wait for them
        }
        try {
            back.get(5, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the session was brought back (it goes on)", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the session was not brought back within 5 minutes", e);
        }
    }

    /**
     * Brings this node's session {@code id} back to life off the caller's thread: a caller that gives
     * up (its request timed out and its thread was interrupted) must not cut a restore short and cost
     * the session its variables. Null when another caller already brings it back or moves it.
     */
    CompletableFuture<Void> bringBack(String id) {
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
                    core.refuseIfNotHere(now); // moved away meanwhile
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

    /** A suspended session brought back: its files, its interpreter from disk when kept, and a {@code resumed} event. */
    private void resume(StoredSession stored) {
        long t0 = System.nanoTime();
        Suspensions.Resumed back = suspensions.resume(stored);
        Session session = core.newSession(stored.id(), parts.eventLog().lastSeq(stored.id()), back.workspace(), null);
        if (back.sandbox() != null) {
            session.adopt(back.sandbox(), null, parts.cellLimits().defaultTimeout(), List.of());
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
            workspace = parts.workspaces().open(stored.workspace());
        } else {
            workspace = parts.workspaces().create();
            sessions.setWorkspace(stored.id(), workspace.id());
        }
        Session session = core.newSession(stored.id(), parts.eventLog().lastSeq(stored.id()), workspace, null);
        if (stored.sandbox() != null) {
            session.interpreterLost("the server restarted and this session's sandbox did not survive it (the engine restarted, "
                    + "or the sandbox stopped): its variables are gone, its files are kept");
        }
        session.start(false);
        live.back(stored, session);
    }

    @Override
    public void close() {
        bringingBack.shutdown();
    }
}
