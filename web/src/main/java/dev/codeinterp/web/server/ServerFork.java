package dev.codeinterp.web.server;

import dev.codeinterp.model.rest.ApiError;
import dev.codeinterp.model.rest.SessionCreated;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.web.bindings.Browser;

/**
 * Forks a server session: {@code POST /api/v1/sessions/{id}/fork} with the session's token answers
 * as a create does, with a new session holding a copy of the variables, the files and the history
 * so far. A refusal (a cell waits or runs, the runtime cannot copy interpreters, the quota) is
 * handed back as the server's own words.
 */
final class ServerFork {
    private ServerFork() {
    }

    static void request(String sessionId, String token, ServerSession.Forked done) {
        Browser.request("POST", "/api/v1/sessions/" + sessionId + "/fork", "", "Bearer " + token, null, (status, body, retryAfter) -> {
            if (status == 201) {
                SessionCreated created;
                try {
                    created = WireCodec.decodeSessionCreated(body);
                } catch (RuntimeException e) {
                    done.ready(null, "The conversation could not be forked: the server's answer was unreadable.");
                    return;
                }
                done.ready(ServerSession.forked(sessionId, created.id(), created.token()), null);
            } else if (status == 0) {
                done.ready(null, "The conversation could not be forked: the server did not answer.");
            } else {
                done.ready(null, refusal(status, body));
            }
        });
    }

    /** The server's reason, and when to try again if it said. */
    private static String refusal(int status, String body) {
        ApiError error;
        try {
            error = WireCodec.decodeApiError(body);
        } catch (RuntimeException e) {
            return "The server could not fork this conversation (" + status + ").";
        }
        if (error.error() == null || error.error().isEmpty()) {
            return "The server could not fork this conversation (" + status + ").";
        }
        String retry = error.retryAfterSeconds() == null ? "" : " Try again in " + Math.max(1, error.retryAfterSeconds()) + " s.";
        return "Not forked: " + error.error() + (error.error().endsWith(".") ? "" : ".") + retry;
    }
}
