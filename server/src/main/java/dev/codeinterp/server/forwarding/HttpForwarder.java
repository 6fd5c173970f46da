package dev.codeinterp.server.forwarding;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamRequestContent;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Sends a request that reached this node on to the node that holds what it is for, and that node's
 * answer back as it comes: bodies stream both ways, and the answer is flushed whenever the other node
 * pauses, so an SSE event or a line of progress reaches the client when it is sent, not at the end.
 * The caller says which of the request's headers stay behind (beyond the connection's own) and adds
 * its own; the other node's headers win over this node's (its X-CodeInterp-Node, its CSP).
 */
public final class HttpForwarder implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(HttpForwarder.class);
    /** Set on a forwarded request: the nodes that sent it on, in order. */
    public static final String FORWARDED_BY = "X-CodeInterp-Forwarded-By";
    /** RFC 9110's connection-specific fields, and the length the client and server each set for their own leg. */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection", "proxy-authenticate",
            "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "content-length", "expect", "http2-settings");

    private final String purpose;
    private final Duration answerWait;
    private final Duration wholeWait;
    private final HttpClient http = new HttpClient();

    /**
     * {@code purpose} names what it forwards, for logs; {@code answerWait} is how long the other node
     * may take to start its answer, {@code wholeWait} how long the whole exchange may last (zero: as
     * long as both ends keep the connection; a node that dies cuts it).
     */
    public HttpForwarder(String purpose, Duration answerWait, Duration wholeWait) {
        if (answerWait.isZero() || answerWait.isNegative() || wholeWait.isNegative()) {
            throw new IllegalArgumentException("answerWait must be positive and wholeWait not negative");
        }
        this.purpose = purpose;
        this.answerWait = answerWait;
        this.wholeWait = wholeWait;
        http.setConnectTimeout(5_000);
        http.setFollowRedirects(false);
        http.setUserAgentField(null); // the caller's own goes on
        http.setIdleTimeout(0); // a cell may run quiet for as long as its timeout
        try {
            http.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the HTTP client that forwards " + purpose + " to other nodes", e);
        }
    }

    /** How many nodes already sent this request on. */
    public static int hops(HttpServletRequest req) {
        String by = req.getHeader(FORWARDED_BY);
        return by == null || by.isBlank() ? 0 : by.split(",").length;
    }

    /** {@link #FORWARDED_BY} as it goes on from node {@code me}. */
    public static String forwardedBy(HttpServletRequest req, String me) {
        String by = req.getHeader(FORWARDED_BY);
        return by == null || by.isBlank() ? me : by + "," + me;
    }

    /**
     * Sends {@code req} on to {@code nodeUrl} (its path and query kept) and writes the answer into
     * {@code res}. {@code keptBack}: the request's headers that stay here (lower case); {@code ours}
     * adds this node's. {@code readBody}: the body a handler already read, or null to stream it from
     * the request. False, with nothing written, when the node could not be reached or did not answer
     * in time: the caller says so in its own words.
     */
    public boolean forward(HttpServletRequest req, HttpServletResponse res, String nodeUrl, Set<String> keptBack,
                           Consumer<HttpFields.Mutable> ours, byte[] readBody) throws IOException, InterruptedException {
        String query = req.getQueryString();
        Request request = http.newRequest(URI.create(nodeUrl + req.getRequestURI() + (query == null ? "" : "?" + query)))
                .method(req.getMethod())
                .idleTimeout(0, TimeUnit.MILLISECONDS)
                .timeout(wholeWait.toMillis(), TimeUnit.MILLISECONDS)
                .headers(headers -> {
                    for (String name : Collections.list(req.getHeaderNames())) {
                        String lower = name.toLowerCase(Locale.ROOT);
                        if (!HOP_BY_HOP.contains(lower) && !keptBack.contains(lower) && !lower.equals(FORWARDED_BY.toLowerCase(Locale.ROOT))) {
                            for (String value : Collections.list(req.getHeaders(name))) {
                                headers.add(name, value); // Host included: the other node applies the same browser-access rules to it
                            }
                        }
                    }
                    ours.accept(headers);
                });
        long length = req.getContentLengthLong();
        if (readBody != null) {
            if (readBody.length > 0) {
                request.body(new BytesRequestContent(req.getContentType(), readBody));
            }
        } else if (length > 0 || length < 0 && req.getHeader("Transfer-Encoding") != null) {
            request.body(new InputStreamRequestContent(req.getContentType(), req.getInputStream()));
        }
        InputStreamResponseListener listener = new InputStreamResponseListener();
        request.send(listener);
        Response answer;
        try {
            answer = listener.get(answerWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("forwarding {} {} {} to {} failed: {}", purpose, req.getMethod(), req.getRequestURI(), nodeUrl,
                    e.getCause() == null ? e : e.getCause());
            request.abort(e);
            return false;
        }
        res.setStatus(answer.getStatus());
        Set<String> replaced = new HashSet<>();
        for (HttpField field : answer.getHeaders()) {
            if (!HOP_BY_HOP.contains(field.getLowerCaseName())) {
                if (replaced.add(field.getLowerCaseName())) {
                    res.setHeader(field.getName(), field.getValue());
                } else {
                    res.addHeader(field.getName(), field.getValue());
                }
            }
        }
        try (InputStream in = listener.getInputStream(); OutputStream out = res.getOutputStream()) {
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
                if (in.available() == 0) {
                    out.flush();
                }
            }
        }
        return true;
    }

    @Override
    public void close() {
        try {
            http.stop();
        } catch (Exception e) {
            log.debug("stopping the client that forwards {}", purpose, e);
        }
    }
}
