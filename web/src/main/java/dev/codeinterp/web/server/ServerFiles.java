package dev.codeinterp.web.server;

import dev.codeinterp.model.rest.FileList;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.web.bindings.FileTransfer;
import dev.codeinterp.web.session.WorkspaceFiles;
import org.teavm.jso.JSObject;

/** The server session's workspace over the REST file API, authorised by the session token. */
public final class ServerFiles implements WorkspaceFiles {
    private final String base;
    private final String token;
    private long maxUpload = 100L << 20;

    ServerFiles(String sessionId, String token) {
        this.base = "/api/v1/sessions/" + sessionId + "/files";
        this.token = token;
    }

    @Override
    public void list(Listing callback) {
        FileTransfer.request("GET", base, token, (status, body) -> {
            if (status != 200) {
                callback.files(null, status == 0 ? "The server did not answer the file listing."
                        : errorOf(body, "The server could not list the files (" + status + ")."));
                return;
            }
            FileList listing;
            try {
                listing = WireCodec.decodeFileList(body);
            } catch (RuntimeException e) {
                callback.files(null, "The server's file listing could not be read.");
                return;
            }
            if (listing.maxUploadBytes() > 0) {
                maxUpload = listing.maxUploadBytes();
            }
            callback.files(listing.files(), null);
        });
    }

    @Override
    public void upload(JSObject file, Progress progress, Done done) {
        String name = FileTransfer.name(file);
        FileTransfer.upload(base + "/" + encode(name), token, file, progress::progress, (status, body) -> {
            if (status == 201) {
                done.done(null);
            } else if (status == 0) {
                done.done("The upload of " + name + " was cut off (too large, or the connection dropped).");
            } else {
                done.done(errorOf(body, "The upload of " + name + " failed (" + status + ")."));
            }
        });
    }

    @Override
    public void save(String name) {
        FileTransfer.fetchBlobUrl(base + "/" + encode(name), token, (status, url) -> {
            if (url != null) {
                FileTransfer.saveAs(url, name);
            }
        });
    }

    @Override
    public void preview(String name, Url callback) {
        FileTransfer.fetchBlobUrl(base + "/" + encode(name), token, (status, url) -> callback.url(url));
    }

    @Override
    public void delete(String name, Done done) {
        FileTransfer.request("DELETE", base + "/" + encode(name), token,
                (status, body) -> done.done(status == 204 ? null : errorOf(body, "Could not delete " + name + ".")));
    }

    @Override
    public long maxUploadBytes() {
        return maxUpload;
    }

    static String errorOf(String body, String fallback) {
        try {
            String error = WireCodec.decodeApiError(body).error();
            return error.isEmpty() ? fallback : error;
        } catch (RuntimeException e) {
            return fallback;
        }
    }

    @org.teavm.jso.JSBody(params = "s", script = "return encodeURIComponent(s);")
    private static native String encode(String s);
}
