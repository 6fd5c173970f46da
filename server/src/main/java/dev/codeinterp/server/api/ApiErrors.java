package dev.codeinterp.server.api;

import dev.codeinterp.model.Limit;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.rest.ApiError;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.files.WorkspaceException;
import dev.codeinterp.server.metrics.ServerMetrics;
import dev.codeinterp.server.session.CellRefusedException;
import dev.codeinterp.server.session.HistoryUnavailableException;
import dev.codeinterp.server.session.LimitExceededException;
import dev.codeinterp.server.session.SandboxUnavailableException;
import dev.codeinterp.server.session.CheckpointUnavailableException;
import dev.codeinterp.server.session.SessionBusyException;
import dev.codeinterp.server.session.SessionClosedException;
import dev.codeinterp.server.session.SessionLostException;
import dev.codeinterp.server.session.SessionNotFoundException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import dev.codeinterp.server.packages.PackageRefusedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Every failure becomes {@code {"error": message}} with a fitting status, mapped here and nowhere else. */
final class ApiErrors {
    private static final Logger log = LoggerFactory.getLogger(ApiErrors.class);
    /** When no sandbox could be started (engine down or restarting): it usually recovers within seconds. */
    private static final int SANDBOX_RETRY_S = 5;

    private ApiErrors() {
    }

    static void register(RoutesConfig routes, ServerMetrics metrics) {
        routes.exception(HttpResponseException.class, (e, ctx) -> respond(ctx, e.getStatus(), e.getMessage()));
        routes.exception(JsonException.class, (e, ctx) -> respond(ctx, 400, "malformed request: " + e.getMessage()));
        routes.exception(BadRequest.class, (e, ctx) -> respond(ctx, 400, e.getMessage()));
        routes.exception(CellRefusedException.class, (e, ctx) -> respond(ctx, 400, e.getMessage()));
        routes.exception(PackageRefusedException.class, (e, ctx) -> respond(ctx, 400, e.getMessage()));
        routes.exception(SessionNotFoundException.class, (e, ctx) -> respond(ctx, 404, "no such session"));
        routes.exception(SessionClosedException.class, (e, ctx) -> respond(ctx, 409, e.getMessage()));
        routes.exception(SessionBusyException.class, (e, ctx) -> respond(ctx, 409, e.getMessage()));
        routes.exception(CheckpointUnavailableException.class, (e, ctx) -> respond(ctx, 409, e.getMessage()));
        routes.exception(SessionLostException.class, (e, ctx) -> respond(ctx, 410, e.getMessage()));
        // SessionElsewhereException: SessionForwarding.forwardMoved sends the request on
        routes.exception(WorkspaceException.class, (e, ctx) -> respond(ctx, switch (e.reason()) {
            case NOT_FOUND -> 404;
            case TOO_LARGE -> 413;
            case FULL -> 507;
            case CONFLICT -> 409;
            case UNAVAILABLE -> 503;
        }, e.getMessage()));
        routes.exception(SandboxUnavailableException.class, (e, ctx) ->
                unavailable(ctx, "no sandbox available: " + e.getMessage(), SANDBOX_RETRY_S));
        routes.exception(HistoryUnavailableException.class, (e, ctx) ->
                unavailable(ctx, e.getMessage(), HistoryUnavailableException.RETRY_AFTER_S));
        routes.exception(LimitExceededException.class, (e, ctx) -> {
            metrics.rejected(e.limit().wire());
            ctx.header("Retry-After", String.valueOf(e.retryAfterSeconds()));
            respond(ctx, status(e.limit()), new ApiError(e.getMessage(), e.limit(), e.retryAfterSeconds()));
        });
        routes.exception(Clients.Unauthorized.class, (e, ctx) -> {
            ctx.header("WWW-Authenticate", "Bearer realm=\"codeinterp\"");
            respond(ctx, 401, e.getMessage());
        });
        routes.exception(Clients.Forbidden.class, (e, ctx) -> respond(ctx, 403, e.getMessage()));
        routes.exception(Exception.class, (e, ctx) -> {
            log.error("unhandled error on {} {}", ctx.method(), ctx.path(), e);
            respond(ctx, 500, "internal error");
        });
        routes.error(404, ctx -> {
            if (ctx.result() == null || ctx.result().isEmpty() || ctx.result().startsWith("Endpoint")) {
                respond(ctx, 404, "not found");
            }
        });
    }

    /** 503 with {@code Retry-After}: something this answer needs is not there now, and may be in {@code retryAfterS}. */
    static void unavailable(Context ctx, String message, int retryAfterS) {
        ctx.header("Retry-After", String.valueOf(retryAfterS));
        respond(ctx, 503, new ApiError(message, null, retryAfterS));
    }

    static void respond(Context ctx, int status, String message) {
        respond(ctx, status, ApiError.of(message));
    }

    static void respond(Context ctx, int status, ApiError error) {
        ctx.status(status).contentType("application/json").result(WireCodec.encode(error));
    }

    /** A client over its own quota is told 429; a server that is full (for everyone) answers 503. */
    static int status(Limit limit) {
        return switch (limit) {
            case SESSIONS_PER_CLIENT, QUEUED_CELLS -> 429;
            case SESSIONS, CONCURRENT_CREATES -> 503;
        };
    }

    /** A request that is well-formed JSON but asks for something we do not do. */
    static final class BadRequest extends RuntimeException {
        BadRequest(String message) {
            super(message);
        }
    }
}
