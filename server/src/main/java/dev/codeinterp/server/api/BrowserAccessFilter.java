package dev.codeinterp.server.api;

import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.config.BrowserAccess;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Optional;

/**
 * Applies {@link BrowserAccess} in front of everything the server answers (Javalin's routes and
 * static files, the WebSocket handshake, the MCP servlet), before any handler reads a byte of the
 * body: a foreign {@code Host} is refused on every request; a foreign {@code Origin} on every
 * request that can change state (any method but GET and HEAD), on everything under {@code /api/}
 * and {@code /mcp} (a WebSocket handshake is a GET that opens a channel that runs code), whatever
 * its content type. Static pages and assets stay readable by our own opaque-origin frames, whose
 * requests carry {@code Origin: null}. A page of an allowed other origin gets CORS answers from the
 * API, preflights included, so it can read what it asked for.
 */
final class BrowserAccessFilter extends HttpFilter {
    private static final Logger log = LoggerFactory.getLogger(BrowserAccessFilter.class);

    private final BrowserAccess access;

    BrowserAccessFilter(BrowserAccess access) {
        this.access = access;
    }

    /** In front of every servlet of the context, for requests as they arrive (not Jetty's error dispatches). */
    void install(ServletContextHandler context) {
        FilterHolder holder = new FilterHolder(this);
        holder.setAsyncSupported(true);
        context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
    }

    @Override
    protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
        String host = req.getHeader("Host");
        Optional<String> refusal = access.hostRefusal(host);
        if (refusal.isEmpty() && drivesTheServer(req.getMethod(), canonicalPath(req))) {
            refusal = access.originRefusal(req.getHeader("Origin"), host);
        }
        if (refusal.isPresent()) {
            // the refused Host or Origin is not logged: headers stay out of the log (RequestLog)
            log.info("{} refused before any handler: {}", req.getMethod(), refusal.get().substring(0, refusal.get().indexOf(':')));
            res.setStatus(403);
            res.setContentType("application/json");
            res.setCharacterEncoding("UTF-8");
            res.setHeader("X-Content-Type-Options", "nosniff");
            res.setHeader("Content-Security-Policy", ContentSecurityPolicy.ERROR.toString());
            res.setHeader("Cache-Control", "no-store");
            res.getWriter().write(WireCodec.encodeError(refusal.get()));
            return;
        }
        String origin = req.getHeader("Origin");
        if (origin != null && !access.isOwnOrigin(origin, host) && canonicalPath(req).startsWith("/api/")) {
            // an allowed page of another site: it may read the answers too (CORS), with bearer keys and
            // tokens, never cookies (the API has none, so no Allow-Credentials)
            res.setHeader("Access-Control-Allow-Origin", origin);
            res.addHeader("Vary", "Origin");
            res.setHeader("Access-Control-Expose-Headers", "Retry-After, X-Request-Id, Content-Disposition");
            if ("OPTIONS".equalsIgnoreCase(req.getMethod()) && req.getHeader("Access-Control-Request-Method") != null) {
                res.setHeader("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE");
                res.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type, " + Clients.EMBED_ORIGIN_HEADER);
                res.setHeader("Access-Control-Max-Age", "600");
                res.setStatus(204);
                return;
            }
        }
        chain.doFilter(req, res);
    }

    /** The decoded, normalised path the servlets route on (not the raw URI, which may hide {@code /api/} behind escapes). */
    private static String canonicalPath(HttpServletRequest req) {
        String info = req.getPathInfo();
        return req.getServletPath() + (info == null ? "" : info);
    }

    /** A request a foreign page must not send: one that may change state, or any call of the API or MCP. */
    static boolean drivesTheServer(String method, String path) {
        boolean safe = "GET".equalsIgnoreCase(method) || "HEAD".equalsIgnoreCase(method);
        return !safe || path.startsWith("/api/") || path.equals("/mcp") || path.startsWith("/mcp/");
    }
}
