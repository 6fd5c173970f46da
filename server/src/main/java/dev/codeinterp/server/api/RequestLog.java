package dev.codeinterp.server.api;

import io.javalin.http.Context;
import io.javalin.router.Endpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line per API request, and a {@code request_id} (plus the path's {@code session_id}) in the
 * MDC of every line logged while it is handled, so an operator can follow one request, or one
 * session, through the log. The id is also sent back as {@code X-Request-Id}. What it logs is the
 * method, the route template, status and duration: never a header, query, body or token.
 */
final class RequestLog {
    private static final Logger log = LoggerFactory.getLogger(RequestLog.class);
    private static final String STARTED = "codeinterp.request.started";
    private static final Pattern SESSION_PATH = Pattern.compile("/api/v1/sessions/([A-Za-z0-9_.-]{1,100})(/.*)?");
    /** The app's static files and local-mode assets are logged only at debug level: a page load is dozens of them. */
    private static final Pattern API_PATH = Pattern.compile("/api/.*|/healthz|/metrics|/mcp.*");

    private RequestLog() {
    }

    static void begin(Context ctx) {
        MDC.clear(); // a pooled thread carries nothing over from its last request
        String id = Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
        MDC.put("request_id", id);
        Matcher session = SESSION_PATH.matcher(ctx.path());
        if (session.matches()) {
            MDC.put("session_id", session.group(1));
        }
        ctx.attribute(STARTED, System.nanoTime());
        ctx.header("X-Request-Id", id);
    }

    static void end(Context ctx) {
        try {
            Long started = ctx.attribute(STARTED);
            long ms = started == null ? -1 : (System.nanoTime() - started) / 1_000_000;
            String route = route(ctx);
            if (API_PATH.matcher(ctx.path()).matches()) {
                log.info("{} {} -> {} in {} ms", ctx.method(), route, ctx.statusCode(), ms);
            } else {
                log.debug("{} {} -> {} in {} ms", ctx.method(), route, ctx.statusCode(), ms);
            }
        } finally {
            MDC.clear();
        }
    }

    /** The matched route's template ({@code /api/v1/sessions/{id}/files/{name}}), so file names stay out of the log. */
    private static String route(Context ctx) {
        try {
            Endpoint endpoint = ctx.endpoints().matchedHttpEndpoint();
            if (endpoint != null) {
                return endpoint.path;
            }
        } catch (RuntimeException e) {
            // no endpoint matched (404) or Javalin keeps it elsewhere: the generic answer below
        }
        return SESSION_PATH.matcher(ctx.path()).matches() ? "/api/v1/sessions/{id}/..." : ctx.path();
    }
}
