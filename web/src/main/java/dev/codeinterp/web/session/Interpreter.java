package dev.codeinterp.web.session;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;

/**
 * Where a conversation's code runs: a server session (a sandbox, over the WebSocket) or the local
 * runtime (Pyodide in a sandboxed frame of this browser). Both deliver the same {@link SessionEvent}s,
 * so the same views render them.
 */
public interface Interpreter {
    interface Listener {
        /** What runs the code, for the status line, e.g. "Server · gVisor" or "Local · Pyodide 314.0.7". */
        void onDescription(String description);

        void onEvent(SessionEvent event);

        /** Connection or loading state in a few words. */
        void onState(String state);

        /** A sentence for the user, or null to clear the last one. */
        void onProblem(String message);

        /** The cell with this code was not taken (it did not run and will not): give it back, saying why. */
        void onRefused(String code, String message);

        /**
         * The cell timeouts this interpreter takes, in ms: its default and its most (local mode's
         * frame says them when it is ready; a server says them on {@code /healthz} instead).
         */
        default void onCellTimeouts(long defaultMs, long maxMs) {
        }

        /** The interpreter takes no more cells (its session is gone); the sentence says what to do. */
        void onEnded(String message);

        /**
         * The interpreter takes no more cells because the server node running its session was lost:
         * its history stays, its variables and files are gone. The sentence is the server's reason.
         * A listener that offers nothing more than {@link #onEnded} need not tell the two apart.
         */
        default void onLost(String message) {
            onEnded(message);
        }
    }

    /** Starts delivering events (history first) to the listener. */
    void connect(Listener listener);

    /**
     * Sends the cell, or returns false if it cannot be sent now (not connected yet): the caller holds
     * it and tries again when the state becomes connected. A sent cell is answered by its
     * {@code queued} event or by {@link Listener#onRefused}.
     */
    default boolean execute(String code) {
        return execute(code, Language.PYTHON);
    }

    /** As {@link #execute(String)}, in {@code language}; each language keeps its own state. */
    boolean execute(String code, Language language);

    /**
     * As {@link #execute(String, Language)}, with {@code packages} installed first (server mode); an
     * interpreter that cannot install them says so rather than run the cell without them.
     */
    default boolean execute(String code, Language language, java.util.List<String> packages) {
        if (!packages.isEmpty()) {
            throw new UnsupportedOperationException("packages install in server mode only");
        }
        return execute(code, language);
    }

    /**
     * As {@link #execute(String, Language, java.util.List)}, given {@code timeoutSeconds} (null: the
     * interpreter's default); an interpreter that cannot set a cell's timeout refuses one.
     */
    default boolean execute(String code, Language language, java.util.List<String> packages, Double timeoutSeconds) {
        if (timeoutSeconds != null) {
            throw new UnsupportedOperationException("a cell's own timeout is set in server mode only");
        }
        return execute(code, language, packages);
    }

    void interrupt();

    /** The person's answer to the running cell's {@code input()} ({@code input_request}). */
    void reply(String value);

    /**
     * Sends a plain-language prompt to the assistant (server mode: the session's own model loop), or
     * returns false if it cannot be sent now; a refusal comes back through {@link Listener#onRefused}.
     */
    default boolean prompt(String text) {
        return false;
    }

    /** Stops the assistant's turn: its model request and the cell it runs. */
    default void stop() {
    }

    void restart();

    /** Stops delivering events and lets go of the interpreter's resources. */
    void close();

    WorkspaceFiles files();

    /** The URL fragment that reopens this conversation after a reload. */
    String route();

    /** Hands back this conversation as a notebook (.ipynb): a blob: URL of it and its file name, or why it could not be made. */
    void notebook(NotebookFile done);

    interface NotebookFile {
        void ready(String blobUrl, String fileName, String problem);
    }
}
