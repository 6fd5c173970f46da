package dev.codeinterp.web.conversations;

import dev.codeinterp.model.rest.SessionList;
import dev.codeinterp.model.rest.SessionPatch;
import dev.codeinterp.model.rest.SessionState;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.server.Credentials;
import dev.codeinterp.web.server.ServerSession;
import org.teavm.jso.JSBody;

/**
 * What the server says of the conversations this browser holds: each session's state (running,
 * suspended; lost if its node was, gone if the server no longer has it), its title, and closing
 * one when it is deleted from the list. Asked with each session's own token.
 */
public final class ServerConversations {
    /** A key's listing is read up to this many pages of 200. */
    private static final int MAX_PAGES = 10;
    private final Conversations list;

    public ServerConversations(Conversations list) {
        this.list = list;
    }

    /** Asks the server about every server conversation of the list but a gone one (it will not come back). */
    public void refresh() {
        for (Conversation c : list.all()) {
            if (!c.local() && !Conversation.GONE.equals(c.state)) {
                describe(c.route);
            }
        }
    }

    /**
     * Lists the sessions {@code apiKey} owns (GET /api/v1/sessions, page by page, at most {@link #MAX_PAGES}),
     * as this browser's too: they open with the key. Then {@code done}, whatever the answer.
     */
    public void listOwned(String apiKey, Runnable done) {
        listPage(apiKey, null, 0, done);
    }

    private void listPage(String apiKey, String after, int pages, Runnable done) {
        String url = "/api/v1/sessions?limit=200" + (after == null ? "" : "&after=" + encode(after));
        Browser.request("GET", url, null, "Bearer " + apiKey, null, (status, body, retryAfter) -> {
            String next = null;
            if (status == 200) {
                try {
                    SessionList page = WireCodec.decodeSessionList(body);
                    for (SessionState s : page.sessions()) {
                        String route = ConversationRoutes.SERVER + s.id();
                        list.known(route, Conversation.SERVER, stateOf(s), s.lastActive());
                        list.state(route, stateOf(s));
                        list.active(route, s.lastActive());
                        if (s.title() != null) {
                            list.titled(route, s.title(), true);
                        }
                    }
                    next = page.next();
                } catch (RuntimeException unreadable) {
                    next = null; // an odd answer lists nothing more
                }
            }
            if (next != null && pages + 1 < MAX_PAGES) {
                listPage(apiKey, next, pages + 1, done);
            } else {
                done.run();
            }
        });
    }

    private static String stateOf(SessionState s) {
        return SessionState.SUSPENDED.equals(s.state()) ? Conversation.SUSPENDED
                : "lost".equals(s.state()) ? Conversation.LOST : Conversation.RUNNING;
    }

    /** Asks the server about one session (GET /api/v1/sessions/{id}); no token here means it is gone from this browser. */
    public void describe(String route) {
        String id = route.substring(ConversationRoutes.SERVER.length());
        String token = secret(id);
        if (token == null) {
            return;
        }
        Browser.request("GET", "/api/v1/sessions/" + id, null, "Bearer " + token, null, (status, body, retryAfter) -> {
            if (status == 200) {
                try {
                    SessionState state = WireCodec.decodeSessionState(body);
                    list.state(route, stateOf(state));
                    list.active(route, state.lastActive());
                    if (state.title() != null) {
                        list.titled(route, state.title(), true);
                    }
                } catch (RuntimeException unreadable) {
                    // an odd answer says nothing of the session
                }
            } else if (status == 404) {
                list.state(route, Conversation.GONE);
            } else if (status == 410) {
                list.state(route, Conversation.LOST);
            }
        });
    }

    /** Keeps the title on the server (PATCH /api/v1/sessions/{id}); a server that keeps none leaves it in this browser. */
    public void rename(String route, String title) {
        String id = route.substring(ConversationRoutes.SERVER.length());
        String token = secret(id);
        if (token != null) {
            Browser.request("PATCH", "/api/v1/sessions/" + id, WireCodec.encode(new SessionPatch(title)), "Bearer " + token, null,
                    (status, body, retryAfter) -> { });
        }
    }

    /** Closes the session (its sandbox, and its history on the server) and forgets its token; then {@code done}. */
    public void close(String route, Runnable done) {
        String id = route.substring(ConversationRoutes.SERVER.length());
        String token = secret(id);
        if (token == null) {
            done.run();
            return;
        }
        Browser.request("DELETE", "/api/v1/sessions/" + id, null, "Bearer " + token, null, (status, body, retryAfter) -> {
            ServerSession.forget(id);
            done.run();
        });
    }

    @JSBody(params = "text", script = "return encodeURIComponent(text);")
    private static native String encode(String text);

    /** What opens the session here: its token, or else the API key this browser holds (which opens the key's sessions). */
    private static String secret(String sessionId) {
        String token = ServerSession.tokenOf(sessionId);
        return token != null ? token : Credentials.inThisBrowser().key();
    }
}
