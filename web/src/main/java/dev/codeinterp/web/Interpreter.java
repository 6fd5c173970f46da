package dev.codeinterp.web;

import dev.codeinterp.model.SessionEvent;

/**
 * Where a conversation's code runs: a server session (a sandbox, over the WebSocket) or the local
 * runtime (Pyodide in a sandboxed frame of this browser). Both deliver the same {@link SessionEvent}s,
 * so the same views render them.
 */
interface Interpreter {
    interface Listener {
        /** What runs the code, for the status line, e.g. "Server · gVisor" or "Local · Pyodide 0.28". */
        void onDescription(String description);

        void onEvent(SessionEvent event);

        /** Connection or loading state in a few words. */
        void onState(String state);

        /** A sentence for the user, or null to clear the last one. */
        void onProblem(String message);
    }

    /** Starts delivering events (history first) to the listener. */
    void connect(Listener listener);

    /** Returns false (after telling the listener why) if the code could not be sent. */
    boolean execute(String code);

    void interrupt();

    void restart();

    /** Stops delivering events and lets go of the interpreter's resources. */
    void close();

    WorkspaceFiles files();

    /** The URL fragment that reopens this conversation after a reload. */
    String route();
}
