package dev.codeinterp.server.session;

import dev.codeinterp.server.store.StoredSession;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sessions with a worker on this node, each with what a request to it is checked against, and
 * the admission place each holds: a session leaves the map and gives its place back in one step, so
 * no way out (close, suspend, move, disown) can forget the place or give it back twice.
 */
public final class LiveSessions {
    /**
     * A session with a worker: its token hash, so a request to it is checked without a database read,
     * and the client its place counts against.
     */
    public record Live(Session session, String tokenHash, String owner) {
    }

    private final Map<String, Live> live = new ConcurrentHashMap<>();
    private final Admission admission;

    public LiveSessions(Admission admission) {
        this.admission = admission;
    }

    public Live get(String id) {
        return live.get(id);
    }

    /** The session's entry while its worker runs; null when there is none or it closed. */
    public Live running(String id) {
        Live entry = live.get(id);
        return entry != null && !entry.session().closed() ? entry : null;
    }

    public boolean holds(String id) {
        return live.containsKey(id);
    }

    /** A session whose place was admitted with a ticket (created, forked). */
    public void admitted(Session session, String tokenHash, String owner) {
        live.put(session.id(), new Live(session, tokenHash, owner));
    }

    /** A stored session with a worker again (adopted, resumed, revived): its place is counted now. */
    public void back(StoredSession stored, Session session) {
        String owner = stored.client() == null ? "unknown" : stored.client();
        admission.count(owner);
        live.put(stored.id(), new Live(session, stored.tokenHash(), owner));
    }

    /** Takes {@code entry} out and gives its place back; false when it had already gone. */
    public boolean release(Live entry) {
        if (live.remove(entry.session().id(), entry)) {
            admission.release(entry.owner());
            return true;
        }
        return false;
    }

    /** Takes {@code session} out, if it is the one here, and gives its place back. */
    public void release(Session session) {
        Live entry = live.get(session.id());
        if (entry != null && entry.session() == session) {
            release(entry);
        }
    }

    /** Takes the session out without giving its place back (a create that failed abandons its ticket itself). */
    public void forget(String id) {
        live.remove(id);
    }

    public List<Live> all() {
        return List.copyOf(live.values());
    }

    public List<Session> sessions() {
        return live.values().stream().map(Live::session).toList();
    }

    public int size() {
        return live.size();
    }
}
