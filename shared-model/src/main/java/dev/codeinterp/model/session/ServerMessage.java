package dev.codeinterp.model.session;

import dev.codeinterp.model.Limit;
import dev.codeinterp.model.SessionEvent;

/** What the server sends over a session's WebSocket. */
public sealed interface ServerMessage permits ServerMessage.Welcome, ServerMessage.EventFrame,
        ServerMessage.ProtocolError {

    /** Answer to a valid hello: which session, which isolation, and the sequence number reached so far. */
    record Welcome(String sessionId, String runtime, long lastSeq) implements ServerMessage {
    }

    record EventFrame(SessionEvent event) implements ServerMessage {
    }

    /**
     * A frame the server could not accept; the connection stays open unless the hello failed.
     * {@code limit} names the admission limit that refused an execute (nothing was queued), else null.
     */
    record ProtocolError(String message, Limit limit) implements ServerMessage {
        public ProtocolError(String message) {
            this(message, null);
        }
    }
}
