package dev.codeinterp.server.mcp;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import java.util.function.Consumer;

/**
 * Sees the transport name a new MCP session ({@code Mcp-Session-Id} on the initialize answer) before
 * a byte of the answer leaves, so the session is bound to its client before the client can use it,
 * and tells the client the id that names this node ({@link McpSessionIds}).
 */
final class SessionIdWatch extends HttpServletResponseWrapper {
    static final String HEADER = "Mcp-Session-Id";

    private final Consumer<String> onCreated;
    private final java.util.function.UnaryOperator<String> toClient;

    /** {@code toClient}: the id the client is told for the transport's ({@link McpSessionIds#external}). */
    SessionIdWatch(HttpServletResponse response, Consumer<String> onCreated, java.util.function.UnaryOperator<String> toClient) {
        super(response);
        this.onCreated = onCreated;
        this.toClient = toClient;
    }

    @Override
    public void setHeader(String name, String value) {
        super.setHeader(name, seen(name, value));
    }

    @Override
    public void addHeader(String name, String value) {
        super.addHeader(name, seen(name, value));
    }

    private String seen(String name, String value) {
        if (HEADER.equalsIgnoreCase(name) && value != null) {
            onCreated.accept(value);
            return toClient.apply(value);
        }
        return value;
    }
}
