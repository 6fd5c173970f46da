package dev.codeinterp.web.conversations;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.rest.SessionState;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.server.Credentials;
import dev.codeinterp.web.server.ServerSession;

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
                    if (Json.parseObject(body).get("title") instanceof String title) {
                        list.titled(route, title, true); // TODO(merge conversations-api): state.title()
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
            Browser.request("PATCH", "/api/v1/sessions/" + id, Json.write(java.util.Map.of("title", title)), "Bearer " + token, null,
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

    /** What opens the session here: its token, or else the API key this browser holds (which opens the key's sessions). */
    private static String secret(String sessionId) {
        String token = ServerSession.tokenOf(sessionId);
        return token != null ? token : Credentials.inThisBrowser().key();
    }
}
