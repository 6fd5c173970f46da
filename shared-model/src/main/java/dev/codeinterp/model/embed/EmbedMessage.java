package dev.codeinterp.model.embed;

import dev.codeinterp.model.WireName;
import dev.codeinterp.model.rest.ExecuteResponse;
import dev.codeinterp.model.rest.FileEntry;

import java.util.List;
import java.util.Map;

/**
 * The messages between a host page's {@code /embed.js} helper and the embed frame (docs/embed.md).
 * {@link Hello} is the one message posted to the parent window (after the frame checked the
 * parent's origin); everything else goes over the {@code MessagePort} the helper hands back.
 * Requests from the host carry an {@code id} and are answered by a {@link Reply} or a
 * {@link Failure} with that id. {@link dev.codeinterp.model.wire.WireCodec} maps them to and from JSON.
 */
public sealed interface EmbedMessage permits EmbedMessage.ToWidget, EmbedMessage.FromWidget {
    int VERSION = 1;

    Type type();

    /** What the host sends the widget. */
    sealed interface ToWidget extends EmbedMessage permits Run, SetCode, GetCode, SetTheme, SetOptions, Reset, Clear, PutFile, ListFiles,
            GetFile {
        String id();
    }

    /** What the widget sends the host. */
    sealed interface FromWidget extends EmbedMessage
            permits Hello, Ready, StatusChange, Stream, Display, Finished, Resize, CodeChange, Reply, Failure, FileList,
            FileContent, FileWritten, InputRequest {
    }

    /** Runs a cell; answered by a {@link Reply} whose {@code result} has the REST one-shot shape. */
    record Run(String id, String code, String language) implements ToWidget {
        public Type type() { return Type.RUN; }
    }

    record SetCode(String id, String code) implements ToWidget {
        public Type type() { return Type.SET_CODE; }
    }

    /** Answered by a {@link Reply} with {@code code}. */
    record GetCode(String id) implements ToWidget {
        public Type type() { return Type.GET_CODE; }
    }

    /** {@code light} or {@code dark}. */
    record SetTheme(String id, String theme) implements ToWidget {
        public Type type() { return Type.SET_THEME; }
    }

    /** Any of {@code readonly}, {@code ui}, {@code maxHeight}; null leaves one as it is. */
    record SetOptions(String id, Boolean readonly, String ui, Long maxHeight) implements ToWidget {
        public Type type() { return Type.SET_OPTIONS; }
    }

    /** A fresh interpreter: variables are gone; the widget's outputs stay (protocol 1's first meaning, kept). */
    record Reset(String id) implements ToWidget {
        public Type type() { return Type.RESET; }
    }

    /**
     * Clears the widget's outputs: the turns of the cells that ended. With {@code restart}, Jupyter's
     * "restart and clear": a fresh interpreter too, and every turn goes, the running cell's included.
     */
    record Clear(String id, boolean restart) implements ToWidget {
        public Type type() { return Type.CLEAR; }
    }

    /** Places a file in the workspace; its bytes (an ArrayBuffer) travel beside the message. Answered by a {@link Reply}. */
    record PutFile(String id, String name) implements ToWidget {
        public Type type() { return Type.PUT_FILE; }
    }

    /** Answered by a {@link FileList}. */
    record ListFiles(String id) implements ToWidget {
        public Type type() { return Type.LIST_FILES; }
    }

    /** Answered by a {@link FileContent}, the bytes beside it. */
    record GetFile(String id, String name) implements ToWidget {
        public Type type() { return Type.GET_FILE; }
    }

    record FileList(String id, List<FileEntry> files) implements FromWidget {
        public Type type() { return Type.FILE_LIST; }
    }

    record FileContent(String id, String name, String mime) implements FromWidget {
        public Type type() { return Type.FILE_CONTENT; }
    }

    record Hello(int version, List<String> capabilities) implements FromWidget {
        public Type type() { return Type.HELLO; }
    }

    /** The interpreter can take cells; {@code runtime} is {@code server} or {@code browser}. */
    record Ready(String runtime, String description) implements FromWidget {
        public Type type() { return Type.READY; }
    }

    /** Connection or loading state in a few words. */
    record StatusChange(String state) implements FromWidget {
        public Type type() { return Type.STATUS; }
    }

    /** Output of a run (of the host's, with its request id, or one typed into the widget: {@code id} null). */
    record Stream(String id, String name, String text) implements FromWidget {
        public Type type() { return Type.STREAM; }
    }

    record Display(String id, Map<String, Object> data) implements FromWidget {
        public Type type() { return Type.DISPLAY; }
    }

    record Finished(String id, String status) implements FromWidget {
        public Type type() { return Type.FINISHED; }
    }

    /** A cell ({@code id}: the run's request id, or null) waits for its {@code input()}: the widget shows an input box. */
    record InputRequest(String id, String prompt, boolean password) implements FromWidget {
        public Type type() { return Type.INPUT_REQUEST; }
    }

    /** A cell ({@code id}: the run's request id, or null) created or changed a workspace file; {@code getFile} reads it. */
    record FileWritten(String id, String name, long size, String mime) implements FromWidget {
        public Type type() { return Type.FILE; }
    }

    /** The widget's content height in CSS pixels (already capped at {@code maxHeight}). */
    record Resize(long height) implements FromWidget {
        public Type type() { return Type.RESIZE; }
    }

    record CodeChange(String code) implements FromWidget {
        public Type type() { return Type.CODE_CHANGE; }
    }

    /** Success for request {@code id}: {@code result} for a run, {@code code} for getCode, else both null. */
    record Reply(String id, ExecuteResponse result, String code) implements FromWidget {
        public Type type() { return Type.REPLY; }
    }

    /** Request {@code id} failed; {@code message} says why in a sentence. */
    record Failure(String id, String message) implements FromWidget {
        public Type type() { return Type.FAILURE; }
    }

    enum Type implements WireName {
        RUN("run"), SET_CODE("setCode"), GET_CODE("getCode"), SET_THEME("setTheme"), SET_OPTIONS("setOptions"),
        RESET("reset"), CLEAR("clear"), PUT_FILE("putFile"), LIST_FILES("listFiles"), GET_FILE("getFile"), FILE_LIST("files"),
        FILE_CONTENT("fileContent"), HELLO("hello"), READY("ready"), STATUS("status"), STREAM("stream"), DISPLAY("display"),
        FINISHED("finished"), RESIZE("resize"), CODE_CHANGE("codechange"), REPLY("reply"), FAILURE("error"), FILE("file"), INPUT_REQUEST("input_request");

        private final String wire;

        Type(String wire) {
            this.wire = wire;
        }

        @Override
        public String wire() {
            return wire;
        }

        public static Type fromWire(String wire) {
            return WireName.find(values(), wire);
        }
    }
}
