package dev.codeinterp.web.bindings;

import org.teavm.jso.JSBody;
import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSMethod;
import org.teavm.jso.JSModule;
import org.teavm.jso.JSObject;
import org.teavm.jso.JSTopLevel;

/**
 * A thin binding for the browser APIs the app needs beyond TeaVM's jso-apis: one-line accessors
 * here, anything longer in a module under public/js/ (an abstract JSObject class, as TeaVM binds
 * a module's top-level functions).
 */
public abstract class Browser implements JSObject {
    private Browser() {
    }

    @JSFunctor
    public interface HttpCallback extends JSObject {
        void call(int status, String body);
    }

    @JSFunctor
    public interface ResponseCallback extends JSObject {
        /** {@code retryAfter} is the Retry-After header, or null. */
        void call(int status, String body, String retryAfter);
    }

    /**
     * A JSON request; {@code authorization} (or null) goes in the Authorization header, never in the
     * URL; {@code embedOrigin} (or null) names the page an embed widget sits on.
     */
    @JSTopLevel
    @JSModule("./js/http.js")
    @JSMethod("jsonRequest")
    public static native void request(String method, String url, String body, String authorization, String embedOrigin,
                                      ResponseCallback callback);

    @JSTopLevel
    @JSModule("./js/storage.js")
    @JSMethod("remove")
    public static native void storageRemove(String key);

    @JSTopLevel
    @JSModule("./js/storage.js")
    @JSMethod("get")
    public static native String storageGet(String key);

    @JSTopLevel
    @JSModule("./js/storage.js")
    @JSMethod("set")
    public static native void storageSet(String key, String value);

    @JSBody(script = "return window.location.hash || '';")
    public static native String hash();

    @JSBody(params = "hash", script = "window.history.replaceState(null, '', '#' + hash);")
    public static native void replaceHash(String hash);

    /** A new history entry at this fragment, so Back returns to the one before (no hashchange is fired). */
    @JSBody(params = "hash", script = "window.history.pushState(null, '', '#' + hash);")
    public static native void pushHash(String hash);

    @JSFunctor
    public interface Callback extends JSObject {
        void call();
    }

    /** Calls back when the fragment changes by Back/Forward, a link or an edit of the address bar. */
    @JSBody(params = "callback", script = "window.addEventListener('hashchange', function () { callback(); });")
    public static native void onHashChange(Callback callback);

    @JSBody(script = "return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host;")
    public static native String webSocketBase();

    @JSBody(params = "text", script = "if (navigator.clipboard) navigator.clipboard.writeText(text);")
    public static native void copy(String text);

    @JSBody(script = "return Date.now();")
    public static native double now();

    @JSBody(params = {"element", "value"}, script = "element.value = value;")
    public static native void setValue(JSObject element, String value);

    @JSBody(params = "element", script = "return element.value;")
    public static native String value(JSObject element);

    @JSBody(params = "element", script = "return element.selectionStart;")
    public static native int selectionStart(JSObject element);

    @JSBody(params = "element", script = "return element.selectionEnd;")
    public static native int selectionEnd(JSObject element);

    @JSBody(params = {"element", "start", "end"}, script = "element.setSelectionRange(start, end);")
    static native void select(JSObject element, int start, int end);

    @JSBody(params = {"element", "text"}, script =
            "element.setRangeText(text, element.selectionStart, element.selectionEnd, 'end');"
            + "element.dispatchEvent(new Event('input'));")
    public static native void insertAtCursor(JSObject element, String text);

    /** Sends the HTML to a sandboxed output frame (/frame.html) once it has loaded. */
    @JSTopLevel
    @JSModule("./js/output-frames.js")
    public static native void sendWhenLoaded(JSObject frame, String html);

    /** Sends a Plotly figure (its JSON) to a sandboxed output frame, which draws it with our plotly.js. */
    @JSTopLevel
    @JSModule("./js/output-frames.js")
    public static native void sendPlotWhenLoaded(JSObject frame, String figureJson);

    @JSFunctor
    public interface FrameHeight extends JSObject {
        void call(JSObject source, double height);
    }

    /** Height reports from sandboxed output frames; only numbers are accepted. */
    @JSTopLevel
    @JSModule("./js/output-frames.js")
    public static native void onFrameHeight(FrameHeight callback);

    @JSBody(params = {"frame", "source"}, script = "return frame.contentWindow === source;")
    public static native boolean isFrameOf(JSObject frame, JSObject source);

    @JSBody(params = {"element", "px"}, script = "element.style.height = px + 'px';")
    public static native void setHeight(JSObject element, double px);

    @JSBody(params = {"from", "to"}, script = "to.scrollTop = from.scrollTop; to.scrollLeft = from.scrollLeft;")
    public static native void syncScroll(JSObject from, JSObject to);

    @JSBody(params = "element", script = "element.scrollIntoView({block: 'end'});")
    public static native void scrollIntoView(JSObject element);

    @JSBody(script = "return window.innerHeight + window.scrollY >= document.body.scrollHeight - 80;")
    public static native boolean nearBottom();
}
