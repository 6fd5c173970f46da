package dev.codeinterp.server.mcp;

import dev.codeinterp.server.cluster.McpSessionCatalog;
import dev.codeinterp.server.cluster.SessionHandover;
import dev.codeinterp.server.session.Client;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamRequestContent;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpField;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.Collections;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An MCP request for a session another live node holds is sent on to it, and its answer back as it
 * comes: an SSE answer (a tool's progress, then its result) is flushed event by event, not held until
 * the end. The request goes with the client's own headers (its key: the other node checks it again)
 * and this node's word, signed, for which client it authenticated ({@link McpSessionCatalog#vouch}),
 * since without API keys a client is its address and the next node would see this node's instead.
 * A request goes at most {@link #MAX_HOPS} hops (a session moving while its request travels).
 */
final class McpForwarding implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(McpForwarding.class);
    static final String FORWARDED = "X-CodeInterp-Forwarded-By";
    static final String CLIENT = "X-CodeInterp-Mcp-Client";
    static final int MAX_HOPS = 2;
    /**
     * A tool's answer starts when its cell ends (or says something), which may be long for a quiet
     * cell; the owner dying cuts the connection, which ends the wait sooner.
     */
    private static final java.time.Duration ANSWER_WAIT = java.time.Duration.ofHours(1);
    private static final Set<String> NOT_FORWARDED = Set.of("connection", "keep-alive", "proxy-connection", "proxy-authenticate",
            "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "content-length", "expect", "http2-settings",
            FORWARDED.toLowerCase(Locale.ROOT), CLIENT.toLowerCase(Locale.ROOT),
            SessionHandover.FROM.toLowerCase(Locale.ROOT), SessionHandover.PROOF.toLowerCase(Locale.ROOT));

    private final McpSessionCatalog catalog;
    private final HttpClient http = new HttpClient();

    McpForwarding(McpSessionCatalog catalog) {
        this.catalog = catalog;
        http.setConnectTimeout(5_000);
        http.setFollowRedirects(false);
        http.setUserAgentField(null);
        http.setIdleTimeout(0); // a tool may run quiet for as long as its cell's timeout
        try {
            http.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the HTTP client that forwards MCP requests to other nodes", e);
        }
    }

    /** How many nodes already sent this request on. */
    static int hops(HttpServletRequest req) {
        String by = req.getHeader(FORWARDED);
        return by == null || by.isBlank() ? 0 : by.split(",").length;
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
        String query = req.getQueryString();
        String by = req.getHeader(FORWARDED);
        Request request = http.newRequest(URI.create(ownerUrl + req.getRequestURI() + (query == null ? "" : "?" + query)))
                .method(req.getMethod())
                .idleTimeout(0, TimeUnit.MILLISECONDS)
                .timeout(0, TimeUnit.MILLISECONDS)
                .headers(headers -> {
                    for (String name : Collections.list(req.getHeaderNames())) {
                        if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                            for (String value : Collections.list(req.getHeaders(name))) {
                                headers.add(name, value);
                            }
                        }
                    }
                    headers.put(FORWARDED, by == null || by.isBlank() ? catalog.node() : by + "," + catalog.node());
                    headers.put(CLIENT, client.id());
                    headers.put(SessionHandover.FROM, catalog.node());
                    headers.put(SessionHandover.PROOF, catalog.vouch(mcpSessionId, client.id()));
                });
        long length = req.getContentLengthLong();
        if (length > 0 || length < 0 && req.getHeader("Transfer-Encoding") != null) {
            request.body(new InputStreamRequestContent(req.getContentType(), req.getInputStream()));
        }
        InputStreamResponseListener listener = new InputStreamResponseListener();
        request.send(listener);
        Response answer;
        try {
            answer = listener.get(ANSWER_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("forwarding an MCP {} to {} failed: {}", req.getMethod(), ownerUrl, e.getCause() == null ? e : e.getCause());
            McpGate.retryLater(res, 1, "this MCP session's node cannot be reached from here now; try again");
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            McpGate.refuse(res, 503, "interrupted while forwarding; try again");
            return;
        }
        res.setStatus(answer.getStatus());
        Set<String> replaced = new HashSet<>(); // the owner's value wins over ours (X-CodeInterp-Node)
        for (HttpField field : answer.getHeaders()) {
            if (!NOT_FORWARDED.contains(field.getLowerCaseName())) {
                if (replaced.add(field.getLowerCaseName())) {
                    res.setHeader(field.getName(), field.getValue());
                } else {
                    res.addHeader(field.getName(), field.getValue());
                }
            }
        }
        try (InputStream in = listener.getInputStream()) {
            OutputStream out = res.getOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
                if (in.available() == 0) {
                    out.flush(); // an SSE event reaches the client when it is sent, not at the end
                }
            }
            out.flush();
        }
    }

    @Override
    public void close() {
        try {
            http.stop();
        } catch (Exception e) {
            log.debug("stopping the MCP forwarding client", e);
        }
    }
}
