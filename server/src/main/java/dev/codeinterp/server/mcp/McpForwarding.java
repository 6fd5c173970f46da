package dev.codeinterp.server.mcp;

import dev.codeinterp.server.cluster.McpSessionCatalog;
import dev.codeinterp.server.cluster.SessionHandover;
import dev.codeinterp.server.forwarding.HttpForwarder;
import dev.codeinterp.server.session.Client;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/**
 * An MCP request for a session another live node holds is sent on to it, and its answer back as it
 * comes ({@link HttpForwarder}: an SSE answer, a tool's progress then its result, is flushed event by
 * event). The request goes with the client's own headers (its key: the other node checks it again)
 * and this node's word, signed, for which client it authenticated ({@link McpSessionCatalog#vouch}),
 * since without API keys a client is its address and the next node would see this node's instead.
 * A request goes at most {@link #MAX_HOPS} hops (a session moving while its request travels).
 */
final class McpForwarding implements AutoCloseable {
    static final String FORWARDED = HttpForwarder.FORWARDED_BY;
    static final String CLIENT = "X-CodeInterp-Mcp-Client";
    static final int MAX_HOPS = 2;
    /**
     * A tool's answer starts when its cell ends (or says something), which may be long for a quiet
     * cell; the owner dying cuts the connection, which ends the wait sooner.
     */
    private static final Duration ANSWER_WAIT = Duration.ofHours(1);
    /** What this node says for itself, never passed on from the client. */
    private static final Set<String> KEPT_BACK = Set.of(CLIENT.toLowerCase(Locale.ROOT),
            SessionHandover.FROM.toLowerCase(Locale.ROOT), SessionHandover.PROOF.toLowerCase(Locale.ROOT));

    private final McpSessionCatalog catalog;
    private final HttpForwarder forwarder = new HttpForwarder("an MCP request", ANSWER_WAIT, Duration.ZERO);

    McpForwarding(McpSessionCatalog catalog) {
        this.catalog = catalog;
    }

    /** How many nodes already sent this request on. */
    static int hops(HttpServletRequest req) {
        return HttpForwarder.hops(req);
    }

    /**
     * The client another node vouches it authenticated for this request, or null when none does (or
     * not provably). Only an address stands in need of it: a key is checked again here, and wins.
     */
    Client vouched(HttpServletRequest req, String mcpSessionId, Client authenticated) {
        String claimed = req.getHeader(CLIENT);
        if (claimed == null || !authenticated.anonymous() || req.getHeader(FORWARDED) == null
                || !catalog.vouchedBy(req.getHeader(SessionHandover.FROM), mcpSessionId, claimed, req.getHeader(SessionHandover.PROOF))) {
            return null;
        }
        return new Client(claimed, authenticated.maxSessions());
    }

    /** Sends the request on to {@code ownerUrl} for MCP session {@code mcpSessionId} of {@code client}, and its answer back. */
    void forward(HttpServletRequest req, HttpServletResponse res, String ownerUrl, String mcpSessionId, Client client) throws IOException {
        boolean answered;
        try {
            answered = forwarder.forward(req, res, ownerUrl, KEPT_BACK, headers -> {
                headers.put(FORWARDED, HttpForwarder.forwardedBy(req, catalog.node()));
                headers.put(CLIENT, client.id());
                headers.put(SessionHandover.FROM, catalog.node());
                headers.put(SessionHandover.PROOF, catalog.vouch(mcpSessionId, client.id()));
            }, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            McpGate.refuse(res, 503, "interrupted while forwarding; try again");
            return;
        }
        if (!answered) {
            McpGate.retryLater(res, 1, "this MCP session's node cannot be reached from here now; try again");
        }
    }

    @Override
    public void close() {
        forwarder.close();
    }
}
