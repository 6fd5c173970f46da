package dev.codeinterp.web.bindings;

import org.teavm.jso.JSModule;
import org.teavm.jso.JSObject;
import org.teavm.jso.JSTopLevel;

/** The page's theme (js/theme.js): auto, light or dark, kept in this browser and told to output frames. */
public abstract class Theme implements JSObject {
    private Theme() {
    }

    /** Applies the kept choice and follows the system's while it is auto. */
    @JSTopLevel
    @JSModule("./js/theme.js")
    public static native void start();

    /** The kept choice: "auto", "light" or "dark". */
    @JSTopLevel
    @JSModule("./js/theme.js")
    public static native String chosen();

    @JSTopLevel
    @JSModule("./js/theme.js")
    public static native void choose(String choice);

    /** The theme shown now: "light" or "dark". */
    @JSTopLevel
    @JSModule("./js/theme.js")
    public static native String current();
}
