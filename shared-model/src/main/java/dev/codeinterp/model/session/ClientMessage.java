package dev.codeinterp.model.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;

/** What a browser or agent sends over a session's WebSocket. */
public sealed interface ClientMessage permits ClientMessage.Hello, ClientMessage.Execute,
        ClientMessage.Interrupt, ClientMessage.Restart, ClientMessage.Prompt, ClientMessage.Stop,
        ClientMessage.InputReply {

    ClientMessageType type();

    /** First frame on a connection: proves access with the session token, asks for events after {@code lastSeq}. */
    record Hello(String token, long lastSeq) implements ClientMessage {
        public ClientMessageType type() { return ClientMessageType.HELLO; }
    }

    /**
     * Run a cell. {@code timeoutSeconds} is optional (null: the server's default); so is
     * {@code language} (null: python; see {@link Language#fromWire}); {@code packages} are
     * installed before the code runs (never null; empty: none).
     */
    record Execute(String code, Double timeoutSeconds, String language, java.util.List<String> packages) implements ClientMessage {
        public Execute(String code, Double timeoutSeconds) {
            this(code, timeoutSeconds, null);
        }

        public Execute(String code, Double timeoutSeconds, String language) {
            this(code, timeoutSeconds, language, java.util.List.of());
        }

        public ClientMessageType type() { return ClientMessageType.EXECUTE; }
    }

    record Interrupt() implements ClientMessage {
        public ClientMessageType type() { return ClientMessageType.INTERRUPT; }
    }

    record Restart() implements ClientMessage {
        public ClientMessageType type() { return ClientMessageType.RESTART; }
    }

    /** Ask the assistant, in plain language; it may run code in this session to answer. */
    record Prompt(String text) implements ClientMessage {
        public ClientMessageType type() { return ClientMessageType.PROMPT; }
    }

    /** Stop the assistant: cancels the model's request and interrupts the cell it is running. */
    record Stop() implements ClientMessage {
        public ClientMessageType type() { return ClientMessageType.STOP; }

    }

    /** The person's answer to the running cell's {@link Event.InputRequest}. */
    record InputReply(String value) implements ClientMessage {
        public ClientMessageType type() { return ClientMessageType.INPUT_REPLY; }
    }
}
