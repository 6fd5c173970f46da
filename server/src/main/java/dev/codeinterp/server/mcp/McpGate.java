package dev.codeinterp.server.mcp;

import dev.codeinterp.model.WireCodec;
import dev.codeinterp.server.session.Client;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.net.URI;
import java.util.List;

/**
 * Stands in front of the SDK's transport on {@code /mcp}: the API key (401 otherwise, as REST
 * answers), the browser Origin rule of the WebSocket, and MCP-session ownership, so that a session
 * id is only good with the client that initialised it. It also sees the session's start (the
 * transport's {@code Mcp-Session-Id} answer, through {@link SessionIdWatch}) and its end (a DELETE
 * the transport accepted).
 */
final class McpGate extends HttpFilter {
    static final String CLIENT = "codeinterp.mcp.client";

    private final Authenticator authenticator;
    private final McpSessions mcpSessions;
    private final List<String> allowedOrigins;

    McpGate(Authenticator authenticator, McpSessions mcpSessions, List<String> allowedOrigins) {
        this.authenticator = authenticator;
        this.mcpSessions = mcpSessions;
        this.allowedOrigins = allowedOrigins;
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Cache-Control", "no-store");
        if (!originAllowed(req)) {
            refuse(res, 403, "origin not allowed");
            return;
        }
        Client client;
        try {
            client = authenticator.authenticate(req.getHeader("Authorization"), req.getRemoteAddr());
        } catch (Authenticator.Refused e) {
            res.setHeader("WWW-Authenticate", "Bearer realm=\"codeinterp\"");
            refuse(res, 401, e.getMessage());
            return;
        }
        req.setAttribute(CLIENT, client);
        String mcpSession = req.getHeader(SessionIdWatch.HEADER);
        if (mcpSession != null && !mcpSessions.usableBy(mcpSession, client)) {
            // an ended id, an unknown one and another client's look the same: 404 tells the client to start over
            refuse(res, 404, "no such MCP session; initialize a new one");
            return;
        }
        JsonRpcErrorBodies answer = new JsonRpcErrorBodies(mcpSession != null ? res
                : new SessionIdWatch(res, created -> mcpSessions.bind(created, client)));
        chain.doFilter(req, answer);
        answer.finish();
        if (mcpSession != null && "DELETE".equals(req.getMethod()) && res.getStatus() == 200) {
            mcpSessions.end(mcpSession);
        }
    }

    /** Browsers always send Origin on cross-site requests: only our own host and the allow-list may drive this. */
    private boolean originAllowed(HttpServletRequest req) {
        String origin = req.getHeader("Origin");
        if (origin == null || allowedOrigins.contains(origin) || allowedOrigins.contains("*")) {
            return true;
        }
        try {
            URI uri = URI.create(origin);
            String originHost = uri.getPort() == -1 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
            String host = req.getHeader("Host");
            return allowedOrigins.isEmpty() && host != null && host.equalsIgnoreCase(originHost);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static void refuse(HttpServletResponse res, int status, String message) throws IOException {
        res.setStatus(status);
        res.setContentType("application/json");
        res.setCharacterEncoding("UTF-8");
        res.getWriter().write(WireCodec.encodeError(message));
    }
}
