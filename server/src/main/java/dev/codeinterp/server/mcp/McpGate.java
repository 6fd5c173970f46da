package dev.codeinterp.server.mcp;

import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.session.Client;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * Stands in front of the SDK's transport on {@code /mcp}: the API key (401 otherwise, as REST
 * answers) and MCP-session ownership, so that a session
 * id is only good with the client that initialised it. It also sees the session's start (the
 * transport's {@code Mcp-Session-Id} answer, through {@link SessionIdWatch}) and its end (a DELETE
 * the transport accepted).
 */
final class McpGate extends HttpFilter {
    static final String CLIENT = "codeinterp.mcp.client";

    private final Authenticator authenticator;
    private final McpSessions mcpSessions;
    private final McpSessionIds ids;

    McpGate(Authenticator authenticator, McpSessions mcpSessions, McpSessionIds ids) {
        this.ids = ids;
        this.authenticator = authenticator;
        this.mcpSessions = mcpSessions;
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Cache-Control", "no-store");
        Client client;
        try {
            client = authenticator.authenticate(req.getHeader("Authorization"), req.getRemoteAddr(),
                    java.util.Collections.list(req.getHeaders("X-Forwarded-For")));
        } catch (Authenticator.Refused e) {
            res.setHeader("WWW-Authenticate", "Bearer realm=\"codeinterp\"");
            refuse(res, 401, e.getMessage());
            return;
        }
        req.setAttribute(CLIENT, client);
        String sent = req.getHeader(SessionIdWatch.HEADER);
        String mcpSession = sent == null ? null : ids.internal(sent);
        if (sent != null && (mcpSession == null || !mcpSessions.usableBy(mcpSession, client))) {
            // an ended id, an unknown one, another node's and another client's look the same: 404 tells the client to start over
            refuse(res, 404, "no such MCP session; initialize a new one");
            return;
        }
        JsonRpcErrorBodies answer = new JsonRpcErrorBodies(mcpSession != null ? res
                : new SessionIdWatch(res, created -> mcpSessions.bind(created, client), ids::external));
        chain.doFilter(mcpSession == null ? req : new SessionIdRequest(req, mcpSession), answer);
        answer.finish();
        if (mcpSession != null && "DELETE".equals(req.getMethod()) && res.getStatus() == 200) {
            mcpSessions.end(mcpSession);
        }
    }

    private static void refuse(HttpServletResponse res, int status, String message) throws IOException {
        res.setStatus(status);
        res.setContentType("application/json");
        res.setCharacterEncoding("UTF-8");
        res.getWriter().write(WireCodec.encodeError(message));
    }
}
