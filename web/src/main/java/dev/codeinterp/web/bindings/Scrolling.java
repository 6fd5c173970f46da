package dev.codeinterp.web.bindings;

import org.teavm.jso.JSModule;
import org.teavm.jso.JSObject;
import org.teavm.jso.JSTopLevel;

/** Keeping the newest output in view above the fixed composer (js/scrolling.js). */
public abstract class Scrolling implements JSObject {
    private Scrolling() {
    }

    /** The page keeps clear of {@code composer}'s height while it is fixed at the bottom. */
    @JSTopLevel
    @JSModule("./js/scrolling.js")
    public static native void reserve(JSObject composer);

    @JSTopLevel
    @JSModule("./js/scrolling.js")
    public static native boolean atEnd();

    @JSTopLevel
    @JSModule("./js/scrolling.js")
    public static native void toEnd();

    /** Scrolls {@code element} into view above the composer, its top kept in view where it fits. */
    @JSTopLevel
    @JSModule("./js/scrolling.js")
    public static native void reveal(JSObject element);

    @JSTopLevel
    @JSModule("./js/scrolling.js")
    public static native void onScroll(Browser.Callback callback);
}
