package dev.codeinterp.web.conversations;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.bindings.ConversationStore;
import dev.codeinterp.web.bindings.HistoryDb;
import org.teavm.jso.browser.Window;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every conversation this browser can open, kept in its IndexedDB ({@link ConversationStore}): the
 * ones it has records of, the server sessions it holds a token for and the local conversations it
 * has events of (both also from before the list existed), and those the server lists for the API
 * key ({@link ServerConversations}). Changes are written a moment later, a few at a time, and each
 * tells the {@code changed} listener.
 */
public final class Conversations {
    private static final int SAVE_DELAY_MS = 300;

    private final Map<String, Conversation> byRoute = new LinkedHashMap<>();
    private final Set<String> unsaved = new LinkedHashSet<>();
    private final Runnable changed;
    private boolean saveScheduled;
    private String problem;

    public Conversations(Runnable changed) {
        this.changed = changed;
    }

    /** Reads the records, then adds the sessions and local conversations this browser holds without one; then {@code ready}. */
    public void load(Runnable ready) {
        ConversationStore.loadRecords((jsons, error) -> {
            problem = error == null ? null : "The list of conversations could not be read: " + error;
            for (String json : jsons) {
                Conversation c = Conversation.fromJson(json);
                if (c != null) {
                    byRoute.put(c.route, c);
                }
            }
            for (String id : ConversationStore.heldSessionIds()) {
                known(ConversationRoutes.SERVER + id, Conversation.SERVER, Conversation.UNKNOWN, 0);
            }
            HistoryDb.conversationIds(ids -> {
                for (String id : ids) {
                    known(ConversationRoutes.LOCAL + id, Conversation.LOCAL, Conversation.LOCAL, 0);
                }
                changed.run();
                ready.run();
            });
        });
    }

    /** Why the list may be incomplete, or null. */
    public String problem() {
        return problem;
    }

    /** The conversation at {@code route}, or null if this browser has none there. */
    public Conversation get(String route) {
        return route == null ? null : byRoute.get(route);
    }

    /** Adds a conversation this browser now holds (one just opened or listed by the server); returns it. */
    public Conversation known(String route, String mode, String state, double lastActive) {
        Conversation c = byRoute.get(route);
        if (c == null && ConversationRoutes.valid(route)) {
            c = new Conversation(route, mode, "", false, state, lastActive, "");
            byRoute.put(route, c);
            save(c);
        }
        return c;
    }

    /** A conversation opened on this page: it is listed from now on, as active now. */
    public void opened(String route, boolean local) {
        boolean isNew = !byRoute.containsKey(route);
        Conversation c = known(route, local ? Conversation.LOCAL : Conversation.SERVER,
                local ? Conversation.LOCAL : Conversation.RUNNING, Browser.now());
        if (c != null && isNew) {
            c.fresh = true;
        }
        if (c != null && c.lastActive == 0) {
            c.lastActive = Browser.now();
            save(c);
        }
    }

    /** An event of the conversation shown: a cell's code names and indexes it, any event dates it. */
    public void event(String route, SessionEvent e) {
        Conversation c = byRoute.get(route);
        if (c == null) {
            return;
        }
        boolean touched = false;
        if (e.event() instanceof Event.Queued q) {
            touched = c.sawCode(q.code());
        } else if (e.event() instanceof Event.Prompt p) {
            touched = c.sawCode(p.text());
        }
        if ((e.event() instanceof Event.Queued || e.event() instanceof Event.Prompt) && e.timestampMs() > c.lastActive) {
            c.lastActive = e.timestampMs();
            touched = true;
        }
        if (touched) {
            save(c);
        }
    }

    /** The server's time of last activity, when later than the one known. */
    public void active(String route, double lastActive) {
        Conversation c = byRoute.get(route);
        if (c != null && lastActive > c.lastActive) {
            c.lastActive = lastActive;
            save(c);
        }
    }

    public void state(String route, String state) {
        Conversation c = byRoute.get(route);
        if (c != null && !state.equals(c.state)) {
            c.state = state;
            save(c);
        }
    }

    /** A title from elsewhere (the server's): kept unless empty; a title someone gave it counts as renamed. */
    public void titled(String route, String title, boolean renamed) {
        Conversation c = byRoute.get(route);
        String bounded = ConversationTitle.bounded(title);
        if (c != null && !bounded.isEmpty() && !bounded.equals(c.title)) {
            c.title = bounded;
            c.renamed = c.renamed || renamed;
            save(c);
        }
    }

    public void rename(String route, String title) {
        Conversation c = byRoute.get(route);
        if (c != null) {
            c.title = ConversationTitle.bounded(title);
            c.renamed = !c.title.isEmpty();
            save(c);
            flush(); // a name someone typed is kept at once, even if the page goes next
        }
    }

    /** Drops the conversation from the list (its session or local history is the caller's to end). */
    public void remove(String route) {
        if (byRoute.remove(route) != null) {
            unsaved.remove(route);
            ConversationStore.removeRecord(route);
            changed.run();
        }
    }

    /** The conversations whose title or code holds {@code query}, newest first; fresh empty ones only if {@code current}. */
    public List<Conversation> matching(String query, String current) {
        String q = query.trim().toLowerCase();
        List<Conversation> found = new ArrayList<>();
        for (Conversation c : byRoute.values()) {
            if ((c.listed() || c.route.equals(current)) && c.matches(q)) {
                found.add(c);
            }
        }
        found.sort((a, b) -> Double.compare(b.lastActive, a.lastActive));
        return found;
    }

    public List<Conversation> all() {
        return new ArrayList<>(byRoute.values());
    }

    private void save(Conversation c) {
        unsaved.add(c.route);
        changed.run();
        if (!saveScheduled) {
            saveScheduled = true;
            Window.setTimeout(this::flush, SAVE_DELAY_MS);
        }
    }

    private void flush() {
        saveScheduled = false;
        for (String route : unsaved) {
            Conversation c = byRoute.get(route);
            if (c != null) {
                ConversationStore.putRecord(route, c.toJson(), error -> problem = "The list of conversations is not kept: " + error);
            }
        }
        unsaved.clear();
    }
}
