package dev.codeinterp.web.bindings;

import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSModule;
import org.teavm.jso.JSObject;
import org.teavm.jso.JSTopLevel;
import org.teavm.jso.dom.html.HTMLElement;

/** Files the user hands the page: chosen in a file input or dropped on it (public/js/user-files.js). */
@JSModule("./js/user-files.js")
public abstract class UserFiles implements JSObject {
    private UserFiles() {
    }

    @JSFunctor
    public interface FileHandler extends JSObject {
        /** {@code file} is a browser File. */
        void call(JSObject file);
    }

    /** Each file chosen in the input; the input is cleared after, so the same file can be chosen again. */
    @JSTopLevel
    public static native void onFilesPicked(HTMLElement input, FileHandler onFile);

    /** Each file dropped on the target, which has the class {@code dropping} while files are dragged over it. */
    @JSTopLevel
    public static native void onFilesDropped(HTMLElement target, FileHandler onFile);

    @JSFunctor
    public interface BytesRead extends JSObject {
        /** {@code bytes} is an ArrayBuffer, or null with {@code error} saying why. */
        void call(JSObject bytes, String error);
    }

    @JSTopLevel
    public static native void readBytes(JSObject file, BytesRead callback);
}
