package dev.codeinterp.web.local;

import dev.codeinterp.model.local.RuntimeFrameMessage;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.web.bindings.FrameHost;
import org.teavm.jso.JSObject;
import org.teavm.jso.browser.Window;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.ArrayList;
import java.util.List;

/**
 * The local runtime's frame: {@code /local/runtime.html} in an {@code <iframe sandbox="allow-scripts">}.
 * Without {@code allow-same-origin} its origin is opaque, so the Python it runs can reach neither
 * this page's DOM, cookies and storage nor our API with credentials. We talk to it only by
 * postMessage (docs/local-runtime-protocol.md), through {@link FrameHost}, which accepts messages
 * only from its window; here they become typed {@link RuntimeFrameMessage}s, kept until someone
 * {@link #listen listens} (a frame started ahead by {@link LocalWarmUp} speaks before it has a conversation).
 */
final class LocalRuntimeFrame {
    static final String PAGE = "/local/runtime.html";

    interface Receiver {
        /** {@code bytes}: the message's ArrayBuffer (a file's content), or null. */
        void receive(RuntimeFrameMessage.FromFrame message, JSObject bytes);
    }

    private final HTMLElement frame;
    private final FrameHost.Connection connection;
    private Receiver receiver;
    /** What came before {@link #listen}. */
    private final List<Early> early = new ArrayList<>();

    private record Early(RuntimeFrameMessage.FromFrame message, JSObject bytes) {
    }

    /**
     * {@code keepSnapshot}: keep the frame's memory snapshot in this origin's IndexedDB, so the next visit starts fast;
     * {@code held}: Python starts only at {@link #release()} (the frame loads meanwhile).
     */
    LocalRuntimeFrame(boolean keepSnapshot, boolean held) {
        frame = Window.current().getDocument().createElement("iframe");
        frame.setClassName("local-runtime");
        frame.setAttribute("sandbox", "allow-scripts");
        // Lets the frame be cross-origin isolated (as this page is), so interrupts keep Python's state
        frame.setAttribute("allow", "cross-origin-isolated");
        frame.setAttribute("title", "Local Python runtime (runs in this browser)");
        frame.setAttribute("aria-hidden", "true");
        frame.setAttribute("tabindex", "-1");
        // #assets=parent: the frame asks us for Pyodide's big files, which we fetch from our own HTTP
        // cache; an opaque-origin frame's own fetches are never cached, so every visit would cost 6 MiB
        frame.setAttribute("src", PAGE + "#assets=parent");
        connection = FrameHost.connect(frame, (json, bytes) -> {
            RuntimeFrameMessage.FromFrame message;
            try {
                message = WireCodec.decodeFromRuntimeFrame(json);
            } catch (RuntimeException e) {
                return; // not a message of the protocol: the frame's output is never trusted
            }
            if (receiver != null) {
                receiver.receive(message, bytes);
            } else {
                early.add(new Early(message, bytes));
            }
        }, keepSnapshot, held);
        Window.current().getDocument().getBody().appendChild(frame);
    }

    /** From now on the frame's messages go to {@code to}, those that came before first. */
    void listen(Receiver to) {
        receiver = to;
        for (Early kept : early) {
            to.receive(kept.message(), kept.bytes());
        }
        early.clear();
    }

    /** A held frame may start Python now. */
    void release() {
        connection.release();
    }

    void post(RuntimeFrameMessage.ToFrame message) {
        connection.post(WireCodec.encode(message), null, false);
    }

    /** Sends the message with {@code bytes} (an ArrayBuffer) as its content, copied. */
    void post(RuntimeFrameMessage.ToFrame message, JSObject bytes) {
        connection.post(WireCodec.encode(message), bytes, false);
    }

    /** Hands the buffer over with the message (no copy); it is unusable here afterwards. */
    void postTransferring(RuntimeFrameMessage.ToFrame message, JSObject buffer) {
        connection.post(WireCodec.encode(message), buffer, true);
    }

    void remove() {
        connection.close();
        if (frame.getParentNode() != null) {
            frame.getParentNode().removeChild(frame);
        }
    }
}
