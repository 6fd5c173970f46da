package dev.codeinterp.web.bindings;

import org.teavm.jso.JSBody;
import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSObject;

/**
 * Browser plumbing for moving file bytes: uploads with progress, blobs, and saving to disk.
 * TeaVM renames JSBody parameters to single letters, so inner names here are never one letter.
 */
public final class FileTransfer {
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

    /** PUTs the file's bytes; the browser streams them and reports progress. */
    @JSBody(params = {"url", "token", "file", "progress", "done"}, script =
            "var x = new XMLHttpRequest(); x.open('PUT', url); x.setRequestHeader('Authorization', 'Bearer ' + token);"
            + "x.upload.onprogress = function(pe) { progress(pe.loaded, pe.lengthComputable ? pe.total : file.size); };"
            + "x.onload = function() { done(x.status, x.responseText); };"
            + "x.onerror = function() { done(0, ''); }; x.send(file);")
    public static native void upload(String url, String token, JSObject file, ProgressCallback progress, Browser.HttpCallback done);

    @JSBody(params = {"method", "url", "token", "callback"}, script =
            "var x = new XMLHttpRequest(); x.open(method, url); x.setRequestHeader('Authorization', 'Bearer ' + token);"
            + "x.onload = function() { callback(x.status, x.responseText); };"
            + "x.onerror = function() { callback(0, ''); }; x.send();")
    public static native void request(String method, String url, String token, Browser.HttpCallback callback);

    /** Fetches with the token and hands back a blob: URL (the token never goes into a URL). */
    @JSBody(params = {"url", "token", "callback"}, script =
            "var x = new XMLHttpRequest(); x.open('GET', url); x.responseType = 'blob';"
            + "x.setRequestHeader('Authorization', 'Bearer ' + token);"
            + "x.onload = function() { callback(x.status, x.status === 200 ? URL.createObjectURL(x.response) : null); };"
            + "x.onerror = function() { callback(0, null); }; x.send();")
    public static native void fetchBlobUrl(String url, String token, BlobUrlCallback callback);

    @JSBody(params = {"blobUrl", "name"}, script =
            "var a = document.createElement('a'); a.href = blobUrl; a.download = name; a.rel = 'noopener';"
            + "document.body.appendChild(a); a.click(); a.remove();"
            + "setTimeout(function() { URL.revokeObjectURL(blobUrl); }, 60000);")
    public static native void saveAs(String blobUrl, String name);

    @JSBody(params = {"bytes", "mime"}, script = "return URL.createObjectURL(new Blob([bytes], {type: mime}));")
    public static native String blobUrl(JSObject bytes, String mime);
}
