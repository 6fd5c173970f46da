package dev.codeinterp.web.session;

import dev.codeinterp.model.rest.FileEntry;
import org.teavm.jso.JSObject;

import java.util.List;

/**
 * The session's workspace as the UI uses it, whichever mode holds it: the server's (over REST, with
 * the session token) or the local interpreter's (inside the browser, never sent anywhere).
 */
public interface WorkspaceFiles {
    interface Listing {
        /** The files, or null with {@code error} (a sentence for the user) when they could not be listed. */
        void files(List<FileEntry> files, String error);
    }

    interface Done {
        /** {@code error} is null on success, else a sentence for the user. */
        void done(String error);
    }

    interface Progress {
        void progress(double loaded, double total);
    }

    interface Url {
        /** A blob: URL of the file's bytes, or null if it could not be read. */
        void url(String blobUrl);
    }

    void list(Listing callback);

    /** {@code file} is a browser File (from the picker or a drop). */
    void upload(JSObject file, Progress progress, Done done);

    /** Offers the file as a download to the user's disk. */
    void save(String name);

    void preview(String name, Url callback);

    void delete(String name, Done done);

    long maxUploadBytes();
}
