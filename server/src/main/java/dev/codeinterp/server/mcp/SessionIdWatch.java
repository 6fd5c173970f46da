package dev.codeinterp.server.mcp;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import java.util.function.Consumer;

/**
 * Sees the transport name a new MCP session ({@code Mcp-Session-Id} on the initialize answer) before
 * a byte of the answer leaves, so the session is bound to its client before the client can use it.
 */
final class SessionIdWatch extends HttpServletResponseWrapper {
    static final String HEADER = "Mcp-Session-Id";

    private final Consumer<String> onCreated;

    SessionIdWatch(HttpServletResponse response, Consumer<String> onCreated) {
        super(response);
        this.onCreated = onCreated;
    }

    @Override
    public void setHeader(String name, String value) {
        seen(name, value);
        super.setHeader(name, value);
    }

    @Override
    public void addHeader(String name, String value) {
        seen(name, value);
        super.addHeader(name, value);
    }

    private void seen(String name, String value) {
        if (HEADER.equalsIgnoreCase(name) && value != null) {
            onCreated.accept(value);
        }
    }
}
