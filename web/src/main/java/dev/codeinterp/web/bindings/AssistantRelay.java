package dev.codeinterp.web.bindings;

import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSModule;
import org.teavm.jso.JSObject;
import org.teavm.jso.JSTopLevel;

/**
 * Local mode's relay to a model endpoint (public/js/assistant-relay.js): a sandboxed frame of ours
 * whose CSP allows connections to that endpoint only, spoken to over a MessagePort.
 */
@JSModule("./js/assistant-relay.js")
public abstract class AssistantRelay implements JSObject {
    private AssistantRelay() {
    }

    @JSFunctor
    public interface Receiver extends JSObject {
        /** {@code type}: status, chunk, end, aborted, failed or unavailable; see the module. */
        void call(String type, String id, int status, String text);
    }

    public interface Relay extends JSObject {
        void send(String id, String url, String apiKey, String body);

        void abort(String id);

        void close();
    }

    /** The origin of an http(s) base URL as the browser serialises it, or "" when it is not one. */
    @JSTopLevel
    public static native String originOf(String baseUrl);

    @JSTopLevel
    public static native Relay open(String endpointOrigin, Receiver receiver);
}
