package dev.codeinterp.server.session.residency;

import dev.codeinterp.server.files.TarStream;
import dev.codeinterp.server.files.Workspaces;
import dev.codeinterp.server.session.LiveSessions;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoredSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Sessions leaving this node for another (a drain) and arriving from one. A session travels as a
 * suspension writes it, so the receiving node brings it back as it would a suspended one of its own.
 */
public final class SessionMoves {
    private static final Logger log = LoggerFactory.getLogger(SessionMoves.class);

    private final LiveSessions live;
    private final SessionTransitions transitions;
    private final Suspensions suspensions;
    private final SessionRepository sessions;
    private final Workspaces workspaces;
    private final BooleanSupplier keepsVariables;
    /** Brings an arrived session back to life at once, off the caller's thread. */
    private final Consumer<String> bringBack;

    SessionMoves(LiveSessions live, SessionTransitions transitions, Suspensions suspensions, SessionRepository sessions,
                 Workspaces workspaces, BooleanSupplier keepsVariables, Consumer<String> bringBack) {
        this.live = live;
        this.transitions = transitions;
        this.suspensions = suspensions;
        this.sessions = sessions;
        this.workspaces = workspaces;
        this.keepsVariables = keepsVariables;
        this.bringBack = bringBack;
    }

    /**
     * Sends a suspended session's folder (opened as one tar stream, on each try) to the node that
     * takes it; returns once that node's row says so, else throws.
     */
    @FunctionalInterface
    public interface HandOver {
        void send(String sessionId, Folder folder, boolean wasRunning);
    }

    /** A session's folder as a tar stream, opened when the sender is ready to send it. */
    @FunctionalInterface
    public interface Folder {
        InputStream open() throws IOException;
    }

    /**
     * Moves this node's session {@code id} to another: written to disk as a suspension writes it (a
     * live one once the cells it accepted are done; it takes no new one meanwhile), with its variables
     * where this runtime can checkpoint, else its files only ({@code filesOnlyWhy} is then what its
     * next cell says); then {@code handOver} sends its folder, and the other node takes its row.
     * Callers wait for the move, then find it on its new node. False when it stays here: it is not this
     * node's to move now (busy being brought back, closed, lost), or the hand-over failed (it is then
     * suspended here, to be moved again or resumed here).
     */
    public boolean moveOut(String id, String filesOnlyWhy, HandOver handOver) {
        SessionTransitions.Transition move = transitions.begin(id);
        if (move == null) {
            return false;
        }
        try (move) {
            LiveSessions.Live entry = live.running(id);
            if (entry != null) {
                Session session = entry.session();
                long lastActive = session.lastActivity();
                boolean keeps = keepsVariables.getAsBoolean();
                session.leave((sandbox, workspace) -> keeps ? suspensions.park(id, sandbox, workspace, lastActive)
                        : suspensions.parkFilesOnly(id, sandbox, workspace, lastActive, filesOnlyWhy));
                live.release(entry);
            }
            StoredSession stored = sessions.find(id).orElse(null);
            if (stored == null || !stored.suspendedOn(sessions.node())) {
                return false;
            }
            Path folder = suspensions.packed(stored);
            handOver.send(id, () -> TarStream.of(folder), entry != null);
            suspensions.discard(id);
            if (stored.workspace() != null) {
                workspaces.discard(stored.workspace()); // a plain-folder workspace went as an archive
            }
            return true;
        } catch (RuntimeException e) {
            log.warn("session {} could not be moved: {}", id, e.getMessage());
            return false;
        }
    }

    /**
     * Takes session {@code id}, suspended on node {@code from} and sent as the tar {@code folder}: its
     * folder here, then its row this node's (once: a session handed over twice, or closed meanwhile,
     * is refused and nothing of it is kept). With {@code wasRunning}, it is brought back at once, as
     * its users were just using it. False when the row was not {@code from}'s to give.
     */
    public boolean arrive(String id, String from, InputStream folder, long maxBytes, boolean wasRunning) {
        StoredSession stored = sessions.find(id).orElse(null);
        if (stored == null || !stored.suspendedOn(from) || live.holds(id) || transitions.underway(id)) {
            return false; // nothing is written for a session that is not the sender's to give
        }
        suspensions.receive(id, folder, maxBytes);
        if (!sessions.takeOver(id, from)) {
            suspensions.discard(id);
            return false;
        }
        log.info("session {} arrived from node {}", id, from);
        if (wasRunning) {
            bringBack.accept(id);
        }
        return true;
    }
}
