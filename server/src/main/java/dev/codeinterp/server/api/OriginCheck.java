package dev.codeinterp.server.api;

import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;

import java.net.URI;
import java.util.List;

/**
 * The WebSocket handshake's Origin must be allow-listed; by default only the server's own host.
 * Browsers always send Origin on WebSocket handshakes, so a page elsewhere cannot ride a user's
 * connection. Non-browser clients (no Origin) are allowed: they must still present the token.
 */
final class OriginCheck {
    private final List<String> allowed;

    OriginCheck(List<String> allowed) {
        this.allowed = allowed;
    }

    void check(Context ctx) {
        String origin = ctx.header("Origin");
        if (origin == null) {
            return;
        }
        if (allowed.contains(origin) || allowed.contains("*")) {
            return;
        }
        String host = ctx.header("Host");
        try {
            URI uri = URI.create(origin);
            String originHost = uri.getPort() == -1 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
            if (allowed.isEmpty() && host != null && host.equalsIgnoreCase(originHost)) {
                return;
            }
        } catch (IllegalArgumentException e) {
            // a malformed Origin is refused below
        }
        throw new ForbiddenResponse("origin not allowed");
    }
}
