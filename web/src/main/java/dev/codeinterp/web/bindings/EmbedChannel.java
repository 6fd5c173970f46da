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

    public interface Port extends JSObject {
        /** Sends a message (JSON text); dropped until the host has connected. */
        void post(String json);
    }

    /** {@code capabilities}: comma-separated, for the hello. */
    @JSTopLevel
    public static native Port open(String capabilities, Text refused, Text accepted, Text connected, Text receive);

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
}
