package dev.codeinterp.web.local;

import dev.codeinterp.web.view.Dom;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSObject;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.ArrayList;
import java.util.List;

/**
 * The local runtime's frame: {@code /local/runtime.html} in an {@code <iframe sandbox="allow-scripts">}.
 * Without {@code allow-same-origin} its origin is opaque, so the Python it runs can reach neither
 * this page's DOM, cookies and storage nor our API with credentials. We talk to it only by
 * postMessage (docs/local-runtime-protocol.md) and accept messages only from its window.
 */
public final class LocalRuntimeFrame {
    static final String PAGE = "/local/runtime.html";

    @JSFunctor
    interface Receiver extends JSObject {
        void call(String type, JSObject message);
    }

    private final HTMLElement frame;
    private final JSObject listener;
    /** Messages for the frame until it first speaks: before that they would reach its about:blank. */
    private final List<JSObject[]> early = new ArrayList<>();
    private boolean heard;

    LocalRuntimeFrame(Receiver receiver) {
        frame = Dom.el("iframe", "local-runtime");
        frame.setAttribute("sandbox", "allow-scripts");
        // Lets the frame be cross-origin isolated (as this page is), so interrupts keep Python's state
        frame.setAttribute("allow", "cross-origin-isolated");
        frame.setAttribute("title", "Local Python runtime (runs in this browser)");
        frame.setAttribute("aria-hidden", "true");
        frame.setAttribute("tabindex", "-1");
        // #assets=parent: the frame asks us for Pyodide's big files, which we fetch from our own HTTP
        // cache; an opaque-origin frame's own fetches are never cached, so every visit would cost 6 MiB
        frame.setAttribute("src", PAGE + "#assets=parent");
        listener = listen(frame, (type, message) -> {
            if (!heard) {
                heard = true;
                for (JSObject[] m : early) {
                    post(frame, m[0], m[1]);
                }
                early.clear();
            }
            if ("fetchAssets".equals(type)) {
                answerAssets(frame, member(message, "urls"));
                return;
            }
            receiver.call(type, message);
        });
        Dom.document().getBody().appendChild(frame);
    }

    void post(JSObject message) {
        postTransferring(message, null);
    }

    /** Hands the buffer over (no copy); it is unusable here afterwards. */
    void postTransferring(JSObject message, JSObject buffer) {
        if (heard) {
            post(frame, message, buffer);
        } else {
            early.add(new JSObject[] {message, buffer});
        }
    }

    void remove() {
        unlisten(listener);
        if (frame.getParentNode() != null) {
            frame.getParentNode().removeChild(frame);
        }
    }

    @JSBody(params = {"frame", "receiver"}, script =
            "var onMessage = function(ev) {"
            + "  if (ev.source !== frame.contentWindow || !ev.data || typeof ev.data.type !== 'string') return;"
            + "  receiver(ev.data.type, ev.data);"
            + "};"
            + "window.addEventListener('message', onMessage); return onMessage;")
    private static native JSObject listen(HTMLElement frame, Receiver receiver);

    /**
     * Fetches what the frame asked for, only GETs of our own origin under /pyodide/ and without
     * credentials, and answers with one {@code assets} message; failed files are left out (the
     * frame then fetches them itself).
     */
    @JSBody(params = {"frame", "urls"}, script =
            "var wanted = (Array.isArray(urls) ? urls : []).filter(function(url) {"
            + "  try { var u = new URL(url); return u.origin === location.origin && u.pathname.indexOf('/pyodide/') === 0"
            + "    && u.search === '' && u.username === '' && u.password === ''; } catch (err) { return false; }"
            + "});"
            + "Promise.all(wanted.map(function(url) {"
            + "  return fetch(url, {credentials: 'omit', redirect: 'error'})"
            + "    .then(function(resp) { return resp.ok ? resp.arrayBuffer() : null; })"
            + "    .then(function(buf) { return buf ? {url: url, bytes: buf} : null; }, function() { return null; });"
            + "})).then(function(got) {"
            + "  var files = got.filter(function(entry) { return entry; });"
            + "  if (frame.contentWindow) frame.contentWindow.postMessage({type: 'assets', files: files}, '*',"
            + "    files.map(function(entry) { return entry.bytes; }));"
            + "});")
    private static native void answerAssets(HTMLElement frame, JSObject urls);

    @JSBody(params = "f", script = "window.removeEventListener('message', f);")
    private static native void unlisten(JSObject f);

    @JSBody(params = {"frame", "message", "buffer"}, script =
            "if (frame.contentWindow) frame.contentWindow.postMessage(message, '*', buffer ? [buffer] : []);")
    private static native void post(HTMLElement frame, JSObject message, JSObject buffer);

    // ---- reading and building plain message objects ----------------------------------------

    @JSBody(params = {"m", "key"}, script = "var v = m[key]; return v === undefined || v === null ? null : String(v);")
    static native String string(JSObject m, String key);

    @JSBody(params = {"m", "key"}, script = "return m[key] === true;")
    static native boolean flag(JSObject m, String key);

    @JSBody(params = {"m", "key"}, script = "var v = Number(m[key]); return isFinite(v) ? v : 0;")
    static native double number(JSObject m, String key);

    @JSBody(params = {"m", "key"}, script = "return m[key] === undefined ? null : m[key];")
    static native JSObject member(JSObject m, String key);

    @JSBody(params = "a", script = "return Array.isArray(a) ? a.length : 0;")
    static native int length(JSObject a);

    @JSBody(params = {"a", "i"}, script = "return a[i];")
    static native JSObject at(JSObject a, int i);

    @JSBody(params = "type", script = "return {type: type};")
    static native JSObject message(String type);

    @JSBody(params = {"m", "key", "value"}, script = "m[key] = value;")
    static native void put(JSObject m, String key, String value);

    @JSBody(params = {"m", "key", "value"}, script = "m[key] = value;")
    static native void putObject(JSObject m, String key, JSObject value);
}
