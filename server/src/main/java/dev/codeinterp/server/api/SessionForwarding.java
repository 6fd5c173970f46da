package dev.codeinterp.server.api;

import dev.codeinterp.server.cluster.NodeRegistry;
import dev.codeinterp.server.session.SessionElsewhereException;
import io.javalin.http.Context;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Session-bound HTTP requests that reach a node other than the session's are sent on to the node
 * that runs it, and its answer back as it comes (bodies streamed both ways). The front door routes
 * on the node named in the session id, so this is the path of the rest: a session that moved (a
 * drained node's), or a proxy without the routing rule. The id's node hint is trusted only to skip
 * the lookup when it names this node; otherwise the store says where the session is, and only a
 * request with the session's token is sent there (a wrong one learns nothing of where, or whether,
 * the session is). A request is forwarded at most once ({@link #FORWARDED}); its Host and Origin go
 * on unchanged, so the owner applies the same browser-access rules.
 */
final class SessionForwarding {
    private static final Logger log = LoggerFactory.getLogger(SessionForwarding.class);
    /** Set on a forwarded request: the node that sent it on. Such a request is answered where it lands. */
    static final String FORWARDED = "X-CodeInterp-Forwarded-By";
    private static final String PREFIX = "/api/v1/sessions/";
    /** RFC 9110's connection-specific fields, and the length the client and server each set for their own leg. */
    private static final Set<String> NOT_FORWARDED = Set.of("connection", "keep-alive", "proxy-connection", "proxy-authenticate",
            "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "content-length", "expect", "http2-settings");

    private final NodeRegistry node;
    private final HttpClient client = new HttpClient();

    SessionForwarding(NodeRegistry node) {
        this.node = node;
        client.setConnectTimeout(5_000);
        client.setFollowRedirects(false);
        client.setUserAgentField(null); // the caller's own goes on
        try {
            client.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the HTTP client that forwards to other nodes", e);
        }
    }

    /** A Javalin before-handler: forwards the request and skips ours when the session is another node's. */
    void forwardIfElsewhere(Context ctx) throws IOException, InterruptedException {
        String path = ctx.path();
        if (!path.startsWith(PREFIX) || ctx.header(FORWARDED) != null || isWebSocket(ctx)) {
            return;
        }
        String rest = path.substring(PREFIX.length());
        String id = rest.indexOf('/') < 0 ? rest : rest.substring(0, rest.indexOf('/'));
        if (id.isEmpty() || id.startsWith(node.id() + ".")) {
            return; // ours by its name: no lookup on the path every cell takes
        }
        Optional<String> token = RestApi.bearerToken(ctx);
        if (token.isEmpty()) {
            return; // no token, no session: answered here
        }
        Optional<String> owner = node.ownerUrl(id, token.get());
        if (owner.isEmpty()) {
            return; // here, unknown, lost, or its node out of reach: answered here, as such
        }
        forward(ctx, owner.get());
        ctx.skipRemainingHandlers();
    }

    /**
     * An exception handler: a session this node held moved to another while the request was here (a
     * drain), so the request goes on to its new node, with the body the handler read. A request
     * already forwarded once, or one without the session's token, is told to try again.
     */
    void forwardMoved(SessionElsewhereException e, Context ctx) {
        String id = ctx.pathParamMap().get("id");
        Optional<String> token = RestApi.bearerToken(ctx);
        Optional<String> owner = id == null || token.isEmpty() || ctx.header(FORWARDED) != null ? Optional.empty()
                : node.ownerUrl(id, token.get());
        if (owner.isEmpty()) {
            ApiErrors.unavailable(ctx, e.getMessage() + ", which this server cannot reach for it", 1);
            return;
        }
        try {
            forward(ctx, owner.get(), ctx.bodyAsBytes());
        } catch (IOException ex) {
            log.debug("forwarding {} {} to its moved session's node: {}", ctx.method(), ctx.path(), ex.toString());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private void forward(Context ctx, String ownerUrl) throws IOException, InterruptedException {
        forward(ctx, ownerUrl, null);
    }

    /** {@code readBody}: the body a handler already read, or null to stream it from the request. */
    private void forward(Context ctx, String ownerUrl, byte[] readBody) throws IOException, InterruptedException {
        String query = ctx.queryString();
        Request request = client.newRequest(URI.create(ownerUrl + ctx.path() + (query == null ? "" : "?" + query)))
                .method(ctx.method().name())
                .timeout(15, TimeUnit.MINUTES)
                .headers(headers -> {
                    for (String name : java.util.Collections.list(ctx.req().getHeaderNames())) {
                        if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT)) && !name.equalsIgnoreCase(FORWARDED)) {
                            for (String value : java.util.Collections.list(ctx.req().getHeaders(name))) {
                                headers.add(name, value); // Host included: the owner applies our browser-access rules to it
                            }
                        }
                    }
                    headers.put(FORWARDED, node.id());
                });
        long length = ctx.req().getContentLengthLong();
        if (readBody != null) {
            if (readBody.length > 0) {
                request.body(new org.eclipse.jetty.client.BytesRequestContent(ctx.header("Content-Type"), readBody));
            }
        } else if (length > 0 || length < 0 && ctx.header("Transfer-Encoding") != null) {
            request.body(new InputStreamRequestContent(ctx.header("Content-Type"), ctx.req().getInputStream()));
        }
        InputStreamResponseListener listener = new InputStreamResponseListener();
        request.send(listener);
        Response answer;
        try {
            answer = listener.get(15, TimeUnit.MINUTES);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("forwarding {} {} to {} failed: {}", ctx.method(), ctx.path(), ownerUrl, e.getCause() == null ? e : e.getCause());
            ApiErrors.unavailable(ctx, "this session's node cannot be reached from here now; try again", 1);
            return;
        }
        ctx.status(answer.getStatus());
        Set<String> replaced = new java.util.HashSet<>(); // the owner's value wins over ours (X-CodeInterp-Node, CSP)
        for (HttpField field : answer.getHeaders()) {
            if (!NOT_FORWARDED.contains(field.getLowerCaseName())) {
                if (replaced.add(field.getLowerCaseName())) {
                    ctx.res().setHeader(field.getName(), field.getValue());
                } else {
                    ctx.res().addHeader(field.getName(), field.getValue());
                }
            }
        }
        try (InputStream in = listener.getInputStream(); OutputStream out = ctx.res().getOutputStream()) {
            in.transferTo(out);
        }
    }

    void close() {
        try {
            client.stop();
        } catch (Exception e) {
            log.debug("stopping the forwarding client", e);
        }
    }

    private static boolean isWebSocket(Context ctx) {
        String upgrade = ctx.header("Upgrade");
        return upgrade != null && upgrade.equalsIgnoreCase("websocket");
    }
}
