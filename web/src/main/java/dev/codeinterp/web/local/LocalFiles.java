package dev.codeinterp.web.local;

import dev.codeinterp.model.FileEntry;
import dev.codeinterp.web.bindings.FileTransfer;
import dev.codeinterp.web.session.WorkspaceFiles;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The local interpreter's workspace: files go into Pyodide's filesystem through the runtime frame
 * and come back from it, so uploads and downloads never touch the network.
 */
public final class LocalFiles implements WorkspaceFiles {
    private static final long MAX_UPLOAD_BYTES = 100L << 20;

    private interface Reply {
        void reply(String type, JSObject message);
    }

    @JSFunctor
    interface BytesRead extends JSObject {
        void call(JSObject buffer, String error);
    }

    private final LocalRuntimeFrame frame;
    private final LocalHistory kept;
    private final Map<String, Reply> waiting = new HashMap<>();
    private int nextRequest;

    /** {@code kept}: where copies of the workspace's files wait for the next reload (IndexedDB). */
    LocalFiles(LocalRuntimeFrame frame, LocalHistory kept) {
        this.frame = frame;
        this.kept = kept;
    }

    /** After a reload: the kept files go back into the fresh interpreter's workspace. */
    void restore(JSObject records) {
        int n = LocalRuntimeFrame.length(records);
        for (int i = 0; i < n; i++) {
            JSObject record = LocalRuntimeFrame.at(records, i);
            JSObject message = LocalRuntimeFrame.message("writeFile");
            LocalRuntimeFrame.put(message, "name", LocalRuntimeFrame.string(record, "name"));
            LocalRuntimeFrame.putObject(message, "bytes", LocalRuntimeFrame.member(record, "bytes"));
            request(message, null, (type, m) -> { });
        }
    }

    /** Keeps a copy of a file a cell wrote. */
    void keep(String name) {
        JSObject message = LocalRuntimeFrame.message("readFile");
        LocalRuntimeFrame.put(message, "name", name);
        request(message, null, (type, m) -> {
            if ("fileContent".equals(type)) {
                kept.keepFile(name, LocalRuntimeFrame.member(m, "bytes"));
            }
        });
    }

    /** Forgets the kept copies of files that are no longer in the workspace. */
    void forgetRemoved() {
        request(LocalRuntimeFrame.message("listFiles"), null, (type, m) -> {
            if ("files".equals(type)) {
                kept.retainFiles(names(LocalRuntimeFrame.member(m, "files")));
            }
        });
    }

    /** A frame message of the file protocol (fileWritten, files, fileContent, fileDeleted, fileError). */
    void receive(String type, JSObject message) {
        Reply reply = waiting.remove(LocalRuntimeFrame.string(message, "requestId"));
        if (reply != null) {
            reply.reply(type, message);
        }
    }

    private void request(JSObject message, JSObject transfer, Reply reply) {
        String id = "f" + (++nextRequest);
        waiting.put(id, reply);
        LocalRuntimeFrame.put(message, "requestId", id);
        if (transfer == null) {
            frame.post(message);
        } else {
            frame.postTransferring(message, transfer);
        }
    }

    @Override
    public void list(Listing callback) {
        request(LocalRuntimeFrame.message("listFiles"), null, (type, m) -> {
            List<FileEntry> entries = new ArrayList<>();
            JSObject files = "files".equals(type) ? LocalRuntimeFrame.member(m, "files") : null;
            int n = files == null ? 0 : LocalRuntimeFrame.length(files);
            for (int i = 0; i < n; i++) {
                JSObject f = LocalRuntimeFrame.at(files, i);
                entries.add(new FileEntry(LocalRuntimeFrame.string(f, "name"), (long) LocalRuntimeFrame.number(f, "size"),
                        (long) LocalRuntimeFrame.number(f, "modified"), LocalRuntimeFrame.string(f, "mime"), ""));
            }
            callback.files(entries);
        });
    }

    @Override
    public void upload(JSObject file, Progress progress, Done done) {
        String name = FileTransfer.name(file);
        double size = FileTransfer.size(file);
        progress.progress(0, size);
        readBytes(file, (buffer, error) -> {
            if (buffer == null) {
                done.done("Could not read " + name + ": " + error);
                return;
            }
            progress.progress(size, size);
            JSObject copy = copyOf(buffer);
            JSObject message = LocalRuntimeFrame.message("writeFile");
            LocalRuntimeFrame.put(message, "name", name);
            LocalRuntimeFrame.putObject(message, "bytes", buffer);
            request(message, buffer, (type, m) -> {
                if ("fileWritten".equals(type)) {
                    kept.keepFile(name, copy);
                    done.done(null);
                } else {
                    done.done(problem(m, "Could not store " + name + "."));
                }
            });
        });
    }

    @Override
    public void save(String name) {
        preview(name, url -> {
            if (url != null) {
                FileTransfer.saveAs(url, name);
            }
        });
    }

    @Override
    public void preview(String name, Url callback) {
        JSObject message = LocalRuntimeFrame.message("readFile");
        LocalRuntimeFrame.put(message, "name", name);
        request(message, null, (type, m) -> {
            if (!"fileContent".equals(type)) {
                callback.url(null);
                return;
            }
            String mime = LocalRuntimeFrame.string(m, "mime");
            callback.url(FileTransfer.blobUrl(LocalRuntimeFrame.member(m, "bytes"), mime == null ? "application/octet-stream" : mime));
        });
    }

    @Override
    public void delete(String name, Done done) {
        JSObject message = LocalRuntimeFrame.message("deleteFile");
        LocalRuntimeFrame.put(message, "name", name);
        request(message, null, (type, m) -> {
            if ("fileDeleted".equals(type)) {
                kept.dropFile(name);
                done.done(null);
            } else {
                done.done(problem(m, "Could not delete " + name + "."));
            }
        });
    }

    @Override
    public long maxUploadBytes() {
        return MAX_UPLOAD_BYTES;
    }

    private static String problem(JSObject m, String fallback) {
        String message = LocalRuntimeFrame.string(m, "message");
        return message == null || message.isEmpty() ? fallback : message;
    }

    @JSBody(params = "buffer", script = "return buffer.slice(0);")
    private static native JSObject copyOf(JSObject buffer);

    @JSBody(params = "files", script = "return (Array.isArray(files) ? files : []).map(function(entry) { return String(entry.name); });")
    private static native JSObject names(JSObject files);

    @JSBody(params = {"file", "callback"}, script =
            "file.arrayBuffer().then(function(buf) { callback(buf, null); }, function(err) { callback(null, String(err && err.message || err)); });")
    private static native void readBytes(JSObject file, BytesRead callback);
}
