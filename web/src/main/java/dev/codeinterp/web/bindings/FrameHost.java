package dev.codeinterp.web.bindings;

import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSModule;
import org.teavm.jso.JSObject;
import org.teavm.jso.JSTopLevel;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * The postMessage channel to the local runtime frame (public/js/frame-host.js). Messages cross it
 * as JSON text, with a message's file bytes (an ArrayBuffer) beside it. The module takes messages
 * only from the frame's window, holds posts until the frame first speaks, and answers the frame's
 * requests for Pyodide's big files itself.
 */
@JSModule("./js/frame-host.js")
public abstract class FrameHost implements JSObject {
    private FrameHost() {
    }

    @JSFunctor
    public interface Receiver extends JSObject {
        /** {@code bytes} is the message's ArrayBuffer, or null. */
        void call(String json, JSObject bytes);
    }

    public interface Connection extends JSObject {
        /** {@code bytes} (or null) goes in as the message's {@code bytes}; if {@code transfer}, handed over (unusable here afterwards). */
        void post(String json, JSObject bytes, boolean transfer);

        /** A {@code held} frame may start Python now: its assets are handed over. Harmless twice. */
        void release();

        void close();
    }

    @JSFunctor
    public interface Callback extends JSObject {
        void call();
    }

    /**
     * {@code keepSnapshot}: keep the frame's memory snapshot in this origin's IndexedDB and hand it back (public/js/snapshot-store.js);
     * {@code held}: the frame loads, but Python starts only at {@link Connection#release()}.
     */
    @JSTopLevel
    public static native Connection connect(HTMLElement frame, Receiver receiver, boolean keepSnapshot, boolean held);

    /** Calls back once the page is idle, if this browser keeps a local-mode snapshot (local mode was used here). */
    @JSTopLevel
    public static native void whenIdleWithSnapshot(Callback callback);
}
