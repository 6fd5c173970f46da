package dev.codeinterp.web.bindings;

import org.teavm.jso.JSBody;
import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSMethod;
import org.teavm.jso.JSModule;
import org.teavm.jso.JSObject;
import org.teavm.jso.JSTopLevel;

/**
 * Browser plumbing for moving file bytes: uploads with progress, authorised requests, blobs, and
 * saving to disk (public/js/http.js and download.js).
 */
public abstract class FileTransfer implements JSObject {
    private FileTransfer() {
    }

    @JSFunctor
    public interface ProgressCallback extends JSObject {
        void call(double loaded, double total);
    }

    @JSFunctor
    public interface BlobUrlCallback extends JSObject {
        void call(int status, String blobUrl);
    }

    @JSBody(params = "file", script = "return String(file.name || 'upload');")
    public static native String name(JSObject file);

    @JSBody(params = "file", script = "return file.size || 0;")
    public static native double size(JSObject file);

    /** PUTs the file's bytes with the session token; the browser streams them and reports progress. */
    @JSTopLevel
    @JSModule("./js/http.js")
    public static native void upload(String url, String token, JSObject file, ProgressCallback progress,
            Browser.HttpCallback done);

    @JSTopLevel
    @JSModule("./js/http.js")
    @JSMethod("tokenRequest")
    public static native void request(String method, String url, String token, Browser.HttpCallback callback);

    /** Fetches with the token and hands back a blob: URL (the token never goes into a URL). */
    @JSTopLevel
    @JSModule("./js/http.js")
    public static native void fetchBlobUrl(String url, String token, BlobUrlCallback callback);

    @JSTopLevel
    @JSModule("./js/download.js")
    public static native void saveAs(String blobUrl, String name);

    @JSTopLevel
    @JSModule("./js/download.js")
    public static native String blobUrl(JSObject bytes, String mime);
}
