package dev.codeinterp.web.bindings;

import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSModule;
import org.teavm.jso.JSObject;
import org.teavm.jso.JSTopLevel;

/** The widget's fetches for its {@code files} option (public/js/embed-files.js): allowed origins only, no credentials. */
@JSModule("./js/embed-files.js")
public abstract class EmbedFiles implements JSObject {
    private EmbedFiles() {
    }

    @JSFunctor
    public interface TextFetched extends JSObject {
        /** {@code text} and the URL it came from, or null with {@code error} saying why. */
        void call(String text, String error, String url);
    }

    @JSFunctor
    public interface FileFetched extends JSObject {
        /** A browser File, or null with {@code error} saying why. */
        void call(JSObject file, String error);
    }

    /** {@code url} absolute, or relative to {@code base} (null: the page's). */
    @JSTopLevel
    public static native void fetchText(String url, String base, double maxBytes, TextFetched done);

    @JSTopLevel
    public static native void fetchFile(String url, String base, String name, double maxBytes, FileFetched done);
}
