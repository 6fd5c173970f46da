package dev.codeinterp.web.bindings;

import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSModule;
import org.teavm.jso.JSObject;
import org.teavm.jso.JSTopLevel;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * The embed frame's channel to its host page (public/js/embed-channel.js): the parent's origin is
 * checked before a word is said to it; messages then cross as JSON text over a MessagePort.
 */
@JSModule("./js/embed-channel.js")
public abstract class EmbedChannel implements JSObject {
    private EmbedChannel() {
    }

    @JSFunctor
    public interface Text extends JSObject {
        /** A sentence, an origin, a key (or null), or a message's JSON, depending on the callback. */
        void call(String text);
    }

    @JSFunctor
    public interface Height extends JSObject {
        void call(double height);
    }

    @JSFunctor
    public interface Action extends JSObject {
        void call();
    }

    @JSFunctor
    public interface Message extends JSObject {
        /** {@code bytes}: the message's ArrayBuffer (a file's content), or null. */
        void call(String json, JSObject bytes);
    }

    @JSFunctor
    public interface Bytes extends JSObject {
        /** An ArrayBuffer, or null. */
        void call(JSObject bytes);
    }

    public interface Port extends JSObject {
        /** Sends a message (JSON text) with {@code bytes} (or null) handed over beside it; dropped until the host has connected. */
        void post(String json, JSObject bytes);
    }

    /** {@code capabilities}: comma-separated, for the hello. */
    @JSTopLevel
    public static native Port open(String capabilities, Text refused, Text accepted, Text connected, Message receive);

    @JSTopLevel
    public static native String option(String name);

    @JSTopLevel
    public static native String base64UrlText(String value);

    @JSTopLevel
    public static native void observeHeight(HTMLElement element, Height callback);

    @JSTopLevel
    public static native void whenVisible(HTMLElement element, Action callback);

    @JSTopLevel
    public static native void setTheme(String theme);

    /** A browser File of the ArrayBuffer, for {@code WorkspaceFiles.upload}. */
    @JSTopLevel
    public static native JSObject toFile(JSObject bytes, String name);

    @JSTopLevel
    public static native void readBlobUrl(String url, Bytes callback);
}
