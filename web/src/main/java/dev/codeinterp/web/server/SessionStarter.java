package dev.codeinterp.web.server;

import dev.codeinterp.model.Limit;
import dev.codeinterp.model.health.Health;
import dev.codeinterp.model.rest.ApiError;
import dev.codeinterp.model.rest.SessionCreated;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.web.bindings.Browser;
import org.teavm.jso.browser.Window;

/**
 * Gets this page a server session. When the server requires API keys it sends the key this browser
 * keeps (asking the user for one, and again if the server refuses it); when an admission limit
 * refuses the create it says which one and tries again by itself after Retry-After. The key goes
 * only in the Authorization header of this request: never in a URL, never in a log.
 */
public final class SessionStarter {
    public interface Listener {
        void started(ServerSession session);

        /** The server wants an API key; {@code refused} if it did not accept the one just sent. */
        void keyNeeded(boolean refused);

        /** A limit refused the create; the sentence counts down to the next try, which needs no one. */
        void waiting(String sentence);

        /** No session and no retry: the sentence says why. */
        void failed(String sentence);
    }

    private final Listener listener;
    private final Credentials credentials;
    private boolean cancelled;

    public SessionStarter(Listener listener, Credentials credentials) {
        this.listener = listener;
        this.credentials = credentials;
    }

    public void start() {
        if (cancelled) {
            return;
        }
        String key = credentials.key();
        Browser.request("POST", "/api/v1/sessions", "", key == null ? null : "Bearer " + key, credentials.embedOrigin(),
                (status, body, retryAfter) -> answered(status, body, retryAfter, key != null));
    }

    /** Keeps the key (the user typed, or the host gave) and tries again with it. */
    public void useKey(String key) {
        credentials.keep(key.trim());
        start();
    }

    /** The page moved on: an answer still on its way is ignored, a pending retry does not happen. */
    public void cancel() {
        cancelled = true;
    }

    private void answered(int status, String body, String retryAfterHeader, boolean sentKey) {
        if (cancelled) {
            return; // a session created meanwhile idles out on the server
        }
        if (status == 201) {
            SessionCreated created = WireCodec.decodeSessionCreated(body);
            listener.started(ServerSession.created(created.id(), created.token()));
            return;
        }
        if (status == 0) {
            listener.failed("The server did not answer.");
            return;
        }
        ApiError error = decode(body, status);
        if (status == 403) { // a key that is ours, not for this page: trying again changes nothing
            listener.failed(error.error());
            return;
        }
        if (status == 401) {
            if (sentKey) {
                credentials.forget();
            }
            listener.keyNeeded(sentKey);
            return;
        }
        int seconds = retryAfter(retryAfterHeader, error);
        if ((status == 429 || status == 503) && seconds > 0) {
            describe(error, sentence -> countDown(sentence, seconds));
            return;
        }
        listener.failed(error.error().isEmpty() ? "Could not start a server session (" + status + ")." : error.error());
    }

    private interface Sentence {
        void ready(String sentence);
    }

    /** What the refusal means for the user, naming the limit (the server's own count where it helps). */
    private static void describe(ApiError error, Sentence then) {
        Limit limit = error.limit();
        if (limit == null) {
            then.ready("No sandbox can be started right now (" + error.error() + ").");
            return;
        }
        switch (limit) {
            case SESSIONS:
                Browser.request("GET", "/healthz", null, null, null, (status, body, retryAfter) -> {
                    long max = status == 200 ? maxSessions(body) : -1;
                    then.ready(max > 0 ? "The server is full (" + max + (max == 1 ? " session" : " sessions") + " open)."
                            : "The server is full: it has as many sessions open as it allows.");
                });
                break;
            case SESSIONS_PER_CLIENT:
                then.ready("You have as many sessions open on this server as you may; one has to close or idle out first.");
                break;
            case CONCURRENT_CREATES:
                then.ready("The server is busy starting other sessions.");
                break;
            default:
                then.ready(error.error());
                break;
        }
    }

    private void countDown(String sentence, int seconds) {
        if (cancelled) {
            return;
        }
        if (seconds <= 0) {
            listener.waiting(sentence + " Retrying now…");
            start();
            return;
        }
        listener.waiting(sentence + " Retrying in " + seconds + " s…");
        Window.setTimeout(() -> countDown(sentence, seconds - 1), 1000);
    }

    private static ApiError decode(String body, int status) {
        try {
            return WireCodec.decodeApiError(body);
        } catch (RuntimeException e) {
            return ApiError.of("Could not start a server session (" + status + ").");
        }
    }

    /** Whole seconds to wait: the Retry-After header, else the body's retry_after, else none. */
    private static int retryAfter(String header, ApiError error) {
        if (header != null && header.trim().matches("[0-9]{1,6}")) {
            return Math.max(1, Integer.parseInt(header.trim()));
        }
        return error.retryAfterSeconds() == null ? 0 : Math.max(1, error.retryAfterSeconds());
    }

    private static long maxSessions(String healthz) {
        try {
            Health.Limits limits = WireCodec.decodeHealth(healthz).limits();
            return limits == null ? -1 : limits.sessions();
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
