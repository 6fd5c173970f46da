package dev.codeinterp.model.local;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.WireName;
import dev.codeinterp.model.rest.FileEntry;

import java.util.List;

/**
 * The messages between the app and the local runtime frame (Pyodide in a sandboxed iframe;
 * docs/local-runtime-protocol.md), as the app speaks them. On the wire they are plain objects
 * with a {@code type}, moved by postMessage; {@link dev.codeinterp.model.wire.WireCodec} maps them to and from JSON.
 * File bytes never go through the codec: they travel beside a {@link WriteFile} or
 * {@link FileContent} as an ArrayBuffer in the message's {@code bytes} member, added and taken
 * off by the app's frame host. The frame's {@code fetchAssets}/{@code assets} exchange (a cache
 * service of the host, all ArrayBuffers) never reaches this vocabulary either.
 */
public sealed interface RuntimeFrameMessage permits RuntimeFrameMessage.ToFrame, RuntimeFrameMessage.FromFrame {

    Type type();

    /** What the app sends the frame. */
    sealed interface ToFrame extends RuntimeFrameMessage
            permits Execute, Interrupt, Restart, WriteFile, ListFiles, ReadFile, DeleteFile, InputReply {
    }

    /** What the frame sends the app. */
    sealed interface FromFrame extends RuntimeFrameMessage
            permits Loading, Ready, Runner, Reset, Fatal, FileReply {
    }

    /** The answer to one file request, carrying that request's id. */
    sealed interface FileReply extends FromFrame permits FileWritten, Files, FileContent, FileDeleted, FileError {
        String requestId();
    }

    /**
     * Runs one cell; no language is Python. {@code timeoutMs} is the conversation's own cell timeout,
     * or null: the frame's default (the server's {@code CODEINTERP_TIMEOUT}, given with its page)
     * applies, as its default output cap always does.
     */
    record Execute(String id, String code, Language language, Long timeoutMs) implements ToFrame {
        public Execute {
            language = language == null ? Language.PYTHON : language;
            if (timeoutMs != null && timeoutMs <= 0) {
                throw new IllegalArgumentException("a cell's timeout is a positive number of milliseconds, not " + timeoutMs);
            }
        }

        public Execute(String id, String code, Language language) {
            this(id, code, language, null);
        }

        public Execute(String id, String code) {
            this(id, code, Language.PYTHON);
        }

        public Type type() { return Type.EXECUTE; }
    }

    record Interrupt() implements ToFrame {
        public Type type() { return Type.INTERRUPT; }
    }

    record Restart() implements ToFrame {
        public Type type() { return Type.RESTART; }
    }

    /** Places a file in the workspace; its bytes go beside the message. */
    record WriteFile(String requestId, String name) implements ToFrame {
        public Type type() { return Type.WRITE_FILE; }
    }

    record ListFiles(String requestId) implements ToFrame {
        public Type type() { return Type.LIST_FILES; }
    }

    record ReadFile(String requestId, String name) implements ToFrame {
        public Type type() { return Type.READ_FILE; }
    }

    record DeleteFile(String requestId, String name) implements ToFrame {
        public Type type() { return Type.DELETE_FILE; }
    }

    /** Loading progress for the status line. */
    record Loading(String message) implements FromFrame {
        public Type type() { return Type.LOADING; }
    }

    /**
     * An interpreter is ready; {@code isolated}: interrupts keep Python's state. {@code timeoutMs} and
     * {@code maxTimeoutMs}: a cell's default and most timeout in this frame (the server's settings
     * its page came with), 0 when the frame did not say them.
     */
    record Ready(String python, String pyodide, boolean isolated, long timeoutMs, long maxTimeoutMs) implements FromFrame {
        public Ready(String python, String pyodide, boolean isolated) {
            this(python, pyodide, isolated, 0, 0);
        }

        public Type type() { return Type.READY; }
    }

    /** One runner-protocol line, decoded with {@link dev.codeinterp.model.wire.WireCodec#decodeRunnerLine}. */
    record Runner(String line) implements FromFrame {
        public Type type() { return Type.RUNNER; }
    }

    /** The interpreter was replaced: its variables are gone, the workspace's files are kept. */
    record Reset(String reason) implements FromFrame {
        public Type type() { return Type.RESET; }
    }

    /** Python cannot load in this browser. */
    record Fatal(String message) implements FromFrame {
        public Type type() { return Type.FATAL; }
    }

    record FileWritten(String requestId, String name, long size) implements FileReply {
        public Type type() { return Type.FILE_WRITTEN; }
    }

    /** The workspace's files ({@code url} empty: read them with {@link ReadFile}). */
    record Files(String requestId, List<FileEntry> files) implements FileReply {
        public Type type() { return Type.FILES; }
    }

    /** One file's name and type; its bytes come beside the message. */
    record FileContent(String requestId, String name, String mime) implements FileReply {
        public Type type() { return Type.FILE_CONTENT; }
    }

    record FileDeleted(String requestId, String name) implements FileReply {
        public Type type() { return Type.FILE_DELETED; }
    }

    /** Any file request that failed; {@code message} says why. */
    record FileError(String requestId, String message) implements FileReply {
        public Type type() { return Type.FILE_ERROR; }
    }

    /** The person's answer to the running cell's {@code input_request}. */
    record InputReply(String value) implements ToFrame {
        public Type type() { return Type.INPUT_REPLY; }
    }

    /** The {@code type} discriminator: one constant per record, for switching over a message. */
    enum Type implements WireName {
        EXECUTE("execute"),
        INTERRUPT("interrupt"),
        RESTART("restart"),
        WRITE_FILE("writeFile"),
        LIST_FILES("listFiles"),
        READ_FILE("readFile"),
        DELETE_FILE("deleteFile"),
        LOADING("loading"),
        READY("ready"),
        RUNNER("runner"),
        RESET("reset"),
        FATAL("fatal"),
        FILE_WRITTEN("fileWritten"),
        FILES("files"),
        FILE_CONTENT("fileContent"),
        FILE_DELETED("fileDeleted"),
        FILE_ERROR("fileError"),
        INPUT_REPLY("inputReply");

        private final String wire;

        Type(String wire) {
            this.wire = wire;
        }

        @Override
        public String wire() {
            return wire;
        }

        public static Type fromWire(String name) {
            return WireName.find(values(), name);
        }
    }
}
