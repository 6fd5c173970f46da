package dev.codeinterp.web.bindings;

import org.teavm.jso.JSBody;
import org.teavm.jso.JSObject;

/** Whether the page is shown narrow (a phone: 600 CSS px or less, as app.css's phone layout). */
public abstract class Viewport implements JSObject {
    private static final String QUERY = "(max-width: 600px)";

    private Viewport() {
    }

    @JSBody(script = "return matchMedia('" + QUERY + "').matches;")
    public static native boolean narrow();

    /** Calls back when the page becomes narrow or wide again (a rotated phone, a resized window). */
    @JSBody(params = "callback", script = "matchMedia('" + QUERY + "').addEventListener('change', function () { callback(); });")
    public static native void onNarrowChange(Browser.Callback callback);
}
