package dev.codeinterp.web.server;

import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.rest.EventHistory;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.web.bindings.Browser;

import java.util.function.Consumer;

/**
 * The history of a session lost with its node, which its WebSocket no longer replays (it only says
 * the session was lost): {@code GET /api/v1/sessions/{id}/events?after=N} with the token, page by
 * page, from the last event shown. It brings what the page has not seen: the whole conversation
 * after a reload, and the end the loss gave cells that were running. A failed read ends it early:
 * what was shown stays.
 */
final class LostHistory {
    private LostHistory() {
    }

    /** Hands each event after seq {@code after} to {@code each}, in order, then runs {@code done}. */
    static void read(String sessionId, String token, long after, Consumer<SessionEvent> each, Runnable done) {
        Browser.request("GET", "/api/v1/sessions/" + sessionId + "/events?after=" + after, null, "Bearer " + token, null,
                (status, body, retryAfter) -> {
                    EventHistory page = status == 200 ? decode(body) : null;
                    if (page == null) {
                        done.run();
                        return;
                    }
                    long last = after;
                    for (SessionEvent e : page.events()) {
                        if (e.seq() > last) {
                            each.accept(e);
                            last = e.seq();
                        }
                    }
                    if (last == after || last >= page.lastSeq()) {
                        done.run();
                    } else {
                        read(sessionId, token, last, each, done);
                    }
                });
    }

    private static EventHistory decode(String body) {
        try {
            return WireCodec.decodeEventHistory(body);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
