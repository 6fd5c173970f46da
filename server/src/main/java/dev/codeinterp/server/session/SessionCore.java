package dev.codeinterp.server.session;

import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.sandbox.Sandbox;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoredSession;

import java.util.concurrent.atomic.AtomicReference;

/**
 * What {@link SessionManager} and where sessions live ({@code residency}) share: the parts, the
 * sessions with a worker here, how a {@link Session} is built, and how a stored row is opened.
 */
public final class SessionCore {
    private final SessionParts parts;
    private final LiveSessions live;

    public SessionCore(SessionParts parts) {
        this.parts = parts;
        this.live = new LiveSessions(parts.admission());
    }

    public SessionParts parts() {
        return parts;
    }

    public LiveSessions live() {
        return live;
    }

    /** This node's id in the store (null alone). */
    public String node() {
        return parts.sessions().node();
    }

    /** {@code first}: a warm sandbox already taken for this session, used for its first interpreter, or null. */
    public Session newSession(String id, long lastSeq, Workspace workspace, Sandbox first) {
        SessionEvents events = new SessionEvents(id, lastSeq, parts.eventLog(), e -> {
            parts.metrics().eventEmitted(e);
            parts.activity().record(e);
        });
        AtomicReference<Sandbox> taken = new AtomicReference<>(first);
        SandboxSource source = new SandboxSource() {
            @Override
            public Sandbox fresh() {
                Sandbox mine = taken.getAndSet(null);
                return mine != null ? mine : parts.pool().acquire();
            }

            @Override
            public Sandbox on(Workspace existing) {
                return parts.pool().startFor(existing);
            }
        };
        SessionRepository rows = parts.sessions();
        return new Session(id, parts.runtime(), events, source, workspace, adopted -> rows.setWorkspace(id, adopted.id()),
                sandbox -> rows.setSandbox(id, sandbox.id()), parts.limits(), parts.links(), parts.installs());
    }

    /** The stored row of an open session {@code key} opens; anything else is {@link SessionNotFoundException}, whatever the reason. */
    public StoredSession openRow(String id, SessionKey key) {
        StoredSession stored = parts.sessions().find(id).orElseThrow(SessionNotFoundException::new);
        if (stored.closedAt() != null || !key.opens(stored.tokenHash(), stored.client())) {
            throw new SessionNotFoundException();
        }
        return stored;
    }

    /** A session lost with its node, or run by another node, is not brought back here: the caller hears which. */
    public void refuseIfNotHere(StoredSession stored) {
        if (stored.lost() != null) {
            throw new SessionLostException(stored.lost());
        }
        if (stored.node() != null && node() != null && !stored.node().equals(node())) {
            throw new SessionElsewhereException(stored.node());
        }
    }

    /** Ends a session of this node here: out of the live map, its worker and sandbox, its row and its files. */
    public void close(Session session) {
        live.release(session);
        session.close();
        parts.sessions().markClosed(session.id(), System.currentTimeMillis());
        destroyWorkspace(session);
    }

    public void destroyWorkspace(Session session) {
        Workspace workspace = session.workspace();
        if (workspace != null) {
            parts.workspaces().destroy(workspace);
        }
    }
}
