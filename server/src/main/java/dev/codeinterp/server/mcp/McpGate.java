package dev.codeinterp.server.mcp;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.cluster.McpSessionCatalog;
import dev.codeinterp.server.session.Client;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.locks.Lock;

/**
 * Stands in front of the SDK's transport on {@code /mcp}: the API key (401 otherwise, as REST
 * answers) and MCP-session ownership, so that a session id is only good with the client that
 * initialised it. It sees the session's start (the transport's {@code Mcp-Session-Id} answer, through
 * {@link SessionIdWatch}; what the client sent in {@code initialize} is kept with it) and its end (a
 * DELETE the transport accepted). An id this process does not serve but the store knows, for the
 * same client, is served where the store says: begun again here ({@link McpSessions#revived}: after a
 * restart, or a drain that brought it here), or sent on to the live node that holds it
 * ({@link McpForwarding}). Any other id, another client's included, is 404 and tells nothing.
 */
final class McpGate extends HttpFilter {
    private static final Logger log = LoggerFactory.getLogger(McpGate.class);
    static final String CLIENT = "codeinterp.mcp.client";
    /** A request without an MCP session is an {@code initialize}: small, read whole to keep its parameters. */
    static final int MAX_INITIALIZE_BYTES = 1 << 20;

    private final Authenticator authenticator;
    private final McpSessions mcpSessions;
    private final McpSessionIds ids;
    private final McpSessionCatalog catalog;
    private final McpForwarding forwarding;

    McpGate(Authenticator authenticator, McpSessions mcpSessions, McpSessionIds ids, McpSessionCatalog catalog, McpForwarding forwarding) {
        this.ids = ids;
        this.authenticator = authenticator;
        this.mcpSessions = mcpSessions;
        this.catalog = catalog;
        this.forwarding = forwarding;
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
        String sent = req.getHeader(SessionIdWatch.HEADER);
        if (sent == null) {
            begin(req, res, chain, client);
            return;
        }
        if (!McpSessionIds.wellFormed(sent)) {
            refuse(res, 404, "no such MCP session; initialize a new one");
            return;
        }
        Client vouched = forwarding.vouched(req, sent, client);
        if (vouched != null) {
            client = vouched; // authenticated by the node that sent this on (without keys, a client is its address)
        }
        req.setAttribute(CLIENT, client);
        // the listening stream (GET) is not held: open for as long as the client likes, it would keep a move waiting
        boolean held = !"GET".equals(req.getMethod());
        for (int tries = 0; tries < 3; tries++) {
            String sdkId = mcpSessions.usableBy(sent, client);
            if (sdkId != null) {
                Lock lock = mcpSessions.lock(sent).readLock();
                if (held) {
                    lock.lock(); // waits while the session moves to another node
                }
                try {
                    if (held && !sdkId.equals(mcpSessions.usableBy(sent, client))) {
                        continue; // it moved or ended meanwhile: look again
                    }
                    serve(req, res, chain, sdkId);
                    return;
                } finally {
                    if (held) {
                        lock.unlock();
                    }
                }
            }
            Client asker = client;
            McpSessionCatalog.Kept kept;
            McpSessionCatalog.Route route;
            try {
                kept = catalog.find(sent).filter(k -> k.client().equals(asker.id())).orElse(null);
                route = kept == null ? null : catalog.route(kept);
            } catch (RuntimeException e) {
                log.warn("MCP session {} could not be looked up: {}", sent, e.getMessage());
                retryLater(res, 5, "this MCP session cannot be looked up now (the store is out of reach); try again");
                return;
            }
            if (kept == null) {
                // an ended id, an unknown one and another client's look the same: 404 tells the client to start over
                refuse(res, 404, "no such MCP session; initialize a new one");
                return;
            }
            if (route instanceof McpSessionCatalog.Route.Elsewhere elsewhere) {
                if (McpForwarding.hops(req) >= McpForwarding.MAX_HOPS) {
                    retryLater(res, 1, "this MCP session is moving between nodes; try again");
                } else {
                    forwarding.forward(req, res, elsewhere.url(), sent, client);
                }
                return;
            }
            if (route instanceof McpSessionCatalog.Route.Away away) {
                retryLater(res, 5, away.why());
                return;
            }
            if (route instanceof McpSessionCatalog.Route.Gone) {
                refuse(res, 404, "no such MCP session; initialize a new one");
                return;
            }
            if (!revive(sent, client)) { // Here: begun again, then served on the next turn
                retryLater(res, 1, "this MCP session could not be resumed here now; try again");
                return;
            }
        }
        retryLater(res, 1, "this MCP session is moving; try again");
    }

    /** A request that names no MCP session: an {@code initialize} (kept with the session it begins), or one the transport refuses. */
    private void begin(HttpServletRequest req, HttpServletResponse res, FilterChain chain, Client client) throws IOException, ServletException {
        req.setAttribute(CLIENT, client);
        HttpServletRequest toTransport = req;
        McpSessions.Initialize init = UNKNOWN_CLIENT;
        if ("POST".equals(req.getMethod())) {
            byte[] body = BufferedBodyRequest.read(req, MAX_INITIALIZE_BYTES);
            if (body == null) {
                refuse(res, 413, "a request without Mcp-Session-Id is an initialize, at most " + (MAX_INITIALIZE_BYTES >> 10) + " KiB");
                return;
            }
            init = initializeParams(body);
            toTransport = new BufferedBodyRequest(req, body);
        }
        McpSessions.Initialize sentInit = init;
        JsonRpcErrorBodies answer = new JsonRpcErrorBodies(new SessionIdWatch(res,
                created -> mcpSessions.bind(created, ids.external(created), client, sentInit), ids::external));
        chain.doFilter(toTransport, answer);
        answer.finish();
    }

    private void serve(HttpServletRequest req, HttpServletResponse res, FilterChain chain, String sdkId) throws IOException, ServletException {
        JsonRpcErrorBodies answer = new JsonRpcErrorBodies(res);
        chain.doFilter(new SessionIdRequest(req, sdkId), answer);
        answer.finish();
        if ("DELETE".equals(req.getMethod()) && res.getStatus() == 200) {
            mcpSessions.end(sdkId);
        }
    }

    /** Begins the stored session {@code external} here again, once (other requests for it wait); false when it could not be. */
    private boolean revive(String external, Client client) {
        Lock lock = mcpSessions.lock(external).writeLock();
        lock.lock();
        try {
            McpSessionCatalog.Kept now = catalog.find(external).orElse(null);
            if (now != null && now.node().equals(catalog.node()) && now.client().equals(client.id())) {
                mcpSessions.revived(now, client);
            }
            return true; // else it moved or ended meanwhile: the caller looks again
        } catch (RuntimeException e) {
            log.warn("MCP session {} could not be begun again here: {}", external, e.getMessage());
            return false;
        } finally {
            lock.unlock();
        }
    }

    private static final McpSessions.Initialize UNKNOWN_CLIENT = new McpSessions.Initialize("", "{}", "{}");

    /** What the client sent in {@code initialize}, as JSON text; the unknown client's when the body is something else. */
    static McpSessions.Initialize initializeParams(byte[] body) {
        try {
            JsonObject message = JsonObject.parse(new String(body, StandardCharsets.UTF_8));
            JsonObject params = message.optObject("params");
            if (!"initialize".equals(message.optString("method", null)) || params == null) {
                return UNKNOWN_CLIENT;
            }
            String version = params.optString("protocolVersion", "");
            JsonObject capabilities = params.optObject("capabilities");
            JsonObject info = params.optObject("clientInfo");
            return new McpSessions.Initialize(version.length() <= 40 ? version : "", // the SDK then offers its own
                    Json.write(capabilities == null ? Map.of() : capabilities.asMap()), Json.write(info == null ? Map.of() : info.asMap()));
        } catch (RuntimeException e) {
            return UNKNOWN_CLIENT; // not JSON, or not an object: the transport answers it
        }
    }

    /** 503 with Retry-After: the session is there, but cannot be served this moment (moving, its node or the store out of reach). */
    static void retryLater(HttpServletResponse res, int seconds, String message) throws IOException {
        res.setHeader("Retry-After", String.valueOf(seconds));
        refuse(res, 503, message);
    }

    static void refuse(HttpServletResponse res, int status, String message) throws IOException {
        res.setStatus(status);
        res.setContentType("application/json");
        res.setCharacterEncoding("UTF-8");
        res.getWriter().write(WireCodec.encodeError(message));
    }
}
