package dev.codeinterp.web.local;

import dev.codeinterp.model.local.RuntimeFrameMessage;
import dev.codeinterp.model.rest.FileEntry;
import dev.codeinterp.web.bindings.FileTransfer;
import dev.codeinterp.web.bindings.UserFiles;
import dev.codeinterp.web.session.WorkspaceFiles;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The local interpreter's workspace: files go into Pyodide's filesystem through the runtime frame
 * and come back from it, so uploads and downloads never touch the network.
 */
final class LocalFiles implements WorkspaceFiles {
    private static final long MAX_UPLOAD_BYTES = 100L << 20;

    private interface Reply {
        /** {@code bytes}: the reply's file content, or null. */
        void reply(RuntimeFrameMessage.FileReply reply, JSObject bytes);
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

    /** After a reload: a kept file goes back into the fresh interpreter's workspace. */
    void restore(String name, JSObject bytes) {
        frame.post(new RuntimeFrameMessage.WriteFile(request((reply, b) -> { }), name), bytes);
    }

    /** Keeps a copy of a file a cell wrote. */
    void keep(String name) {
        request(id -> new RuntimeFrameMessage.ReadFile(id, name), (reply, bytes) -> {
            if (reply instanceof RuntimeFrameMessage.FileContent) {
                kept.keepFile(name, bytes);
            }
        });
    }

    /** Forgets the kept copies of files that are no longer in the workspace. */
    void forgetRemoved() {
        request(RuntimeFrameMessage.ListFiles::new, (reply, bytes) -> {
            if (reply instanceof RuntimeFrameMessage.Files f) {
                List<String> names = new ArrayList<>();
                for (FileEntry e : f.files()) {
                    names.add(e.name());
                }
                kept.retainFiles(names);
            }
        });
    }

    /** A reply of the frame to one of our file requests. */
    void receive(RuntimeFrameMessage.FileReply reply, JSObject bytes) {
        Reply waiter = waiting.remove(reply.requestId());
        if (waiter != null) {
            waiter.reply(reply, bytes);
        }
    }

    /** Registers the reply and returns the new request's id. */
    private String request(Reply reply) {
        String id = "f" + (++nextRequest);
        waiting.put(id, reply);
        return id;
    }

    private void request(Function<String, RuntimeFrameMessage.ToFrame> message, Reply reply) {
        frame.post(message.apply(request(reply)));
    }

    @Override
    public void list(Listing callback) {
        request(RuntimeFrameMessage.ListFiles::new, (reply, bytes) -> {
            if (reply instanceof RuntimeFrameMessage.Files f) {
                callback.files(f.files(), null);
            } else {
                callback.files(null, problem(reply, "The files in this browser could not be listed."));
            }
        });
    }

    @Override
    public void upload(JSObject file, Progress progress, Done done) {
        String name = FileTransfer.name(file);
        double size = FileTransfer.size(file);
        progress.progress(0, size);
        UserFiles.readBytes(file, (buffer, error) -> {
            if (buffer == null) {
                done.done("Could not read " + name + ": " + error);
                return;
            }
            progress.progress(size, size);
            JSObject copy = copyOf(buffer);
            String id = request((reply, bytes) -> {
                if (reply instanceof RuntimeFrameMessage.FileWritten) {
                    kept.keepFile(name, copy);
                    done.done(null);
                } else {
                    done.done(problem(reply, "Could not store " + name + "."));
                }
            });
            frame.postTransferring(new RuntimeFrameMessage.WriteFile(id, name), buffer);
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
        request(id -> new RuntimeFrameMessage.ReadFile(id, name), (reply, bytes) ->
                callback.url(reply instanceof RuntimeFrameMessage.FileContent c && bytes != null
                        ? FileTransfer.blobUrl(bytes, c.mime()) : null));
    }

    @Override
    public void delete(String name, Done done) {
        request(id -> new RuntimeFrameMessage.DeleteFile(id, name), (reply, bytes) -> {
            if (reply instanceof RuntimeFrameMessage.FileDeleted) {
                kept.dropFile(name);
                done.done(null);
            } else {
                done.done(problem(reply, "Could not delete " + name + "."));
            }
        });
    }

    @Override
    public long maxUploadBytes() {
        return MAX_UPLOAD_BYTES;
    }

    private static String problem(RuntimeFrameMessage.FileReply reply, String fallback) {
        String message = reply instanceof RuntimeFrameMessage.FileError e ? e.message() : null;
        return message == null || message.isEmpty() ? fallback : message;
    }

    @JSBody(params = "buffer", script = "return buffer.slice(0);")
    private static native JSObject copyOf(JSObject buffer);
}
