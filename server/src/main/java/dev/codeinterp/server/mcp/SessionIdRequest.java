package dev.codeinterp.server.mcp;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import java.util.Collections;
import java.util.Enumeration;

/** A request whose {@code Mcp-Session-Id} is the SDK's own id for the session the client named ({@link McpSessionIds}). */
final class SessionIdRequest extends HttpServletRequestWrapper {
    private final String internal;

    SessionIdRequest(HttpServletRequest request, String internal) {
        super(request);
        this.internal = internal;
    }

    @Override
    public String getHeader(String name) {
        return SessionIdWatch.HEADER.equalsIgnoreCase(name) ? internal : super.getHeader(name);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
        return SessionIdWatch.HEADER.equalsIgnoreCase(name) ? Collections.enumeration(java.util.List.of(internal)) : super.getHeaders(name);
    }
}
