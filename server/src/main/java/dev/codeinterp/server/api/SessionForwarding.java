package dev.codeinterp.server.api;

import dev.codeinterp.server.cluster.NodeRegistry;
import dev.codeinterp.server.forwarding.HttpForwarder;
import dev.codeinterp.server.session.SessionElsewhereException;
import io.javalin.http.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
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
    static final String FORWARDED = HttpForwarder.FORWARDED_BY;
    private static final String PREFIX = "/api/v1/sessions/";
    /** The longest a synchronous cell may take, with room to spare; a download as long. */
    private static final Duration WAIT = Duration.ofMinutes(15);

    private final NodeRegistry node;
    private final Clients keys;
    private final HttpForwarder forwarder = new HttpForwarder("a session's request", WAIT, WAIT);

    SessionForwarding(NodeRegistry node, Clients keys) {
        this.node = node;
        this.keys = keys;
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
        Optional<String> owner = node.ownerUrl(id, keys.sessionKey(token.get()));
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
                : node.ownerUrl(id, keys.sessionKey(token.get()));
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
        if (!forwarder.forward(ctx.req(), ctx.res(), ownerUrl, Set.of(), headers -> headers.put(FORWARDED, node.id()), readBody)) {
            ApiErrors.unavailable(ctx, "this session's node cannot be reached from here now; try again", 1);
        }
    }

    void close() {
        forwarder.close();
    }

    private static boolean isWebSocket(Context ctx) {
        String upgrade = ctx.header("Upgrade");
        return upgrade != null && upgrade.equalsIgnoreCase("websocket");
    }
}
