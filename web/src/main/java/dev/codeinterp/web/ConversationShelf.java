package dev.codeinterp.web;

import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.web.bindings.ConversationStore;
import dev.codeinterp.web.bindings.HistoryDb;
import dev.codeinterp.web.conversations.Conversation;
import dev.codeinterp.web.conversations.Conversations;
import dev.codeinterp.web.conversations.ServerConversations;
import dev.codeinterp.web.local.LocalInterpreter;
import dev.codeinterp.web.server.Credentials;
import dev.codeinterp.web.server.ServerSession;
import dev.codeinterp.web.session.Interpreter;
import dev.codeinterp.web.view.ConversationList;

/**
 * The page's conversations: the list this browser keeps ({@link Conversations}), what the server
 * says of them ({@link ServerConversations}, with an API key also the key's other sessions), the
 * sidebar showing them, and the page's title naming the one shown. The page tells it what it
 * opens and what happens there; it answers which conversations a route can open.
 */
final class ConversationShelf {
    private static final String APP_NAME = "codeinterp";

    private final Conversations conversations = new Conversations(this::changed);
    private final ServerConversations server = new ServerConversations(conversations);
    private final ConversationList list;
    /** The route shown, or null. */
    private String shown;
    /** Whether the server was asked about this browser's sessions: not while only local ones were shown (nothing leaves the browser). */
    private boolean serverAsked;

    ConversationShelf(ConversationList.Actions actions) {
        list = new ConversationList(conversations, actions);
    }

    ConversationList list() {
        return list;
    }

    /**
     * Reads the list; then {@code then}. With {@code askServer} (the page opens on a server
     * conversation) first the key's sessions, and after it how the server's sessions are; otherwise
     * that waits until a server conversation is opened, so a page in local mode asks the server nothing.
     */
    void load(boolean askServer, Runnable then) {
        conversations.load(() -> {
            if (!askServer) {
                then.run();
                return;
            }
            serverAsked = true;
            listKeySessions(() -> {
                then.run();
                server.refresh();
            });
        });
    }

    /** With an API key in this browser, the key's sessions join the list (they open on any device holding it). */
    void listKeySessions(Runnable then) {
        String key = Credentials.inThisBrowser().key();
        if (key == null) {
            then.run();
        } else {
            server.listOwned(key, then);
        }
    }

    /** The conversation at {@code route} if this browser can open it: a session it holds a token (or the owning key) for, a local one it keeps. */
    Interpreter reopen(String route) {
        if (route == null) {
            return null;
        }
        if (route.startsWith(ServerSession.ROUTE_PREFIX)) {
            String id = route.substring(ServerSession.ROUTE_PREFIX.length());
            ServerSession held = ServerSession.reopen(id);
            String key = Credentials.inThisBrowser().key();
            return held != null || key == null || conversations.get(route) == null ? held : ServerSession.withKey(id, key);
        }
        if (route.startsWith(LocalInterpreter.ROUTE_PREFIX) && conversations.get(route) != null) {
            return LocalInterpreter.reopen(route.substring(LocalInterpreter.ROUTE_PREFIX.length()));
        }
        return null;
    }

    /** A conversation opened on the page: listed, marked as shown, named in the page's title. */
    void opened(Interpreter opened) {
        shown = opened.route();
        conversations.opened(shown, opened instanceof LocalInterpreter);
        list.current(shown);
        changed();
        if (!serverAsked && !(opened instanceof LocalInterpreter)) {
            serverAsked = true;
            listKeySessions(server::refresh);
        }
    }

    /** Nothing shown but the page saying a link cannot be opened. */
    void foreignShown() {
        shown = null;
        list.current(null);
        ConversationStore.setPageTitle("Conversation not found · " + APP_NAME);
    }

    /** An event of the conversation shown; its first cell's title is kept on the server too, for the key's other devices. */
    void event(Interpreter in, SessionEvent event) {
        Conversation listed = conversations.get(in.route());
        boolean untitled = listed != null && !listed.titled();
        conversations.event(in.route(), event);
        if (untitled && listed.titled() && in instanceof ServerSession) {
            server.rename(listed.route(), listed.title());
        }
    }

    void state(Interpreter in, String state) {
        if (in != null) {
            conversations.state(in.route(), state);
        }
    }

    void rename(String route, String title) {
        conversations.rename(route, title);
        if (route.startsWith(ServerSession.ROUTE_PREFIX)) {
            server.rename(route, conversations.get(route).title());
        }
    }

    /** Closes the session on the server (or drops the local history) and takes it off the list. */
    void delete(String route) {
        if (route.startsWith(ServerSession.ROUTE_PREFIX)) {
            server.close(route, () -> conversations.remove(route));
        } else {
            HistoryDb.forget(route.substring(LocalInterpreter.ROUTE_PREFIX.length()));
            conversations.remove(route);
        }
    }

    private void changed() {
        list.changed();
        Conversation c = conversations.get(shown);
        if (c != null) {
            ConversationStore.setPageTitle(c.title() + " · " + APP_NAME);
        }
    }
}
