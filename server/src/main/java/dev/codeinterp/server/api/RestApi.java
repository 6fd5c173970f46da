package dev.codeinterp.server.api;

import dev.codeinterp.model.rest.EventHistory;
import dev.codeinterp.model.runner.CellInput;
import dev.codeinterp.model.rest.ExecuteRequest;
import dev.codeinterp.model.rest.ExecuteResponse;
import dev.codeinterp.model.rest.SessionCreated;
import dev.codeinterp.model.rest.SessionPatch;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.config.Settings;
import dev.codeinterp.model.rules.WorkspaceNames;
import dev.codeinterp.server.session.Cell;
import dev.codeinterp.server.session.Client;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.session.SessionIndex;
import dev.codeinterp.server.session.SessionKey;
import dev.codeinterp.server.session.SessionManager;
import dev.codeinterp.server.session.SessionElsewhereException;
import dev.codeinterp.server.session.SessionLostException;
import dev.codeinterp.server.session.SessionNotFoundException;
import io.javalin.http.Context;
import io.javalin.http.NotFoundResponse;

import java.util.ArrayList;
import java.util.List;

/** The REST tool API of docs/protocol.md. Handlers parse, delegate to sessions, and encode; nothing more. */
final class RestApi {
    private static final int MAX_HISTORY_PAGE = 5000;

    private final SessionManager sessions;
    private final Settings settings;
    private final Clients clients;
    private final SessionIndex index;

    RestApi(SessionManager sessions, Settings settings, Clients clients, SessionIndex index) {
        this.index = index;
        this.sessions = sessions;
        this.settings = settings;
        this.clients = clients;
    }

    void executeOnce(Context ctx) {
        Client client = clients.of(ctx);
        ExecuteRequest request = WireCodec.decodeExecuteRequest(ctx.body());
        Cell cell = cell(request);
        checkFiles(request.files());
        ExecuteResponse response = sessions.executeOnce(client, cell, request.files(), settings.maxReturnedFilesBytes(),
                "run in a session and download them", SessionManager.NO_PROGRESS);
        json(ctx, 200, WireCodec.encode(response));
    }

    void createSession(Context ctx) {
        SessionManager.Created created = sessions.create(clients.forSession(ctx), false);
        json(ctx, 201, WireCodec.encode(new SessionCreated(created.session().id(), created.token(), created.session().runtime())));
    }

    void executeInSession(Context ctx) {
        Session session = authorised(ctx);
        ExecuteRequest request = WireCodec.decodeExecuteRequest(ctx.body());
        Cell cell = cell(request);
        if (!request.files().isEmpty()) {
            throw new ApiErrors.BadRequest("'files' belongs to the one-shot /api/v1/execute; upload files to a session instead");
        }
        json(ctx, 200, WireCodec.encode(sessions.execute(session, cell, SessionManager.NO_PROGRESS)));
    }

    void history(Context ctx) {
        long after = parseLong(ctx.queryParam("after"), 0);
        Session session;
        try {
            session = authorised(ctx);
        } catch (SessionLostException | SessionElsewhereException e) {
            json(ctx, 200, WireCodec.encode(sessions.storedHistory(ctx.pathParam("id"), sessionKey(ctx), after, MAX_HISTORY_PAGE)));
            return;
        }
        List<SessionEvent> events;
        List<SessionEvent> collected = new ArrayList<>();
        // subscribe-and-leave gives a consistent snapshot through the same path a WebSocket uses
        java.util.function.Consumer<SessionEvent> sink = e -> {
            if (collected.size() < MAX_HISTORY_PAGE) {
                collected.add(e);
            }
        };
        session.subscribe(after, sink);
        session.unsubscribe(sink);
        synchronized (collected) {
            events = List.copyOf(collected);
        }
        json(ctx, 200, WireCodec.encode(new EventHistory(session.id(), events, session.lastSeq())));
    }

    void interrupt(Context ctx) {
        authorised(ctx).interrupt();
        ctx.status(202);
    }

    void restart(Context ctx) {
        authorised(ctx).restart();
        ctx.status(202);
    }

    /** {@code GET /api/v1/sessions/{id}}: running, suspended or lost, and its title; asking does not resume it. */
    void describeSession(Context ctx) {
        json(ctx, 200, WireCodec.encode(index.describe(ctx.pathParam("id"), sessionKey(ctx))));
    }

    /** {@code PATCH /api/v1/sessions/{id}} {@code {"title": "..."}}: names the session; answers as GET does. */
    void retitle(Context ctx) {
        SessionKey key = sessionKey(ctx); // an unknown session is 404 before its body is read
        SessionPatch patch = WireCodec.decodeSessionPatch(ctx.body());
        json(ctx, 200, WireCodec.encode(index.retitle(ctx.pathParam("id"), key, patch.title())));
    }

    /**
     * {@code GET /api/v1/sessions?limit=N&after=CURSOR}: the API key's own open sessions, the most
     * recently active first. A server without keys knows no one to list for: 404 saying so.
     */
    void listSessions(Context ctx) {
        Client owner = clients.of(ctx);
        if (owner.anonymous()) {
            throw new NotFoundResponse("this server runs without API keys, so it has no identity to list sessions by: "
                    + "a client lists the sessions it holds tokens for");
        }
        long limit = parseLong(ctx.queryParam("limit"), SessionIndex.DEFAULT_PAGE);
        String after = ctx.queryParam("after");
        try {
            json(ctx, 200, WireCodec.encode(index.owned(owner.id(), (int) Math.max(-1, Math.min(limit, Integer.MAX_VALUE)),
                    after == null || after.isEmpty() ? null : after)));
        } catch (IllegalArgumentException e) {
            throw new ApiErrors.BadRequest(e.getMessage());
        }
    }

    /** What the request's bearer opens: the session's token, or the secret API key that owns it. */
    SessionKey sessionKey(Context ctx) {
        return clients.sessionKey(bearer(ctx));
    }

    void suspend(Context ctx) {
        sessions.suspend(authorised(ctx));
        json(ctx, 200, WireCodec.encode(index.describe(ctx.pathParam("id"), sessionKey(ctx))));
    }

    /** {@code POST /api/v1/sessions/{id}/fork}: a new session with this one's variables, files and history. */
    void fork(Context ctx) {
        Session source = authorised(ctx);
        SessionManager.Created created = sessions.fork(source, clients.owner(sessions.owner(source)));
        json(ctx, 201, WireCodec.encode(new SessionCreated(created.session().id(), created.token(), created.session().runtime())));
    }

    void closeSession(Context ctx) {
        try {
            sessions.close(authorised(ctx));
        } catch (SessionLostException e) {
            sessions.closeLost(ctx.pathParam("id"), sessionKey(ctx)); // nothing runs: its row is closed, history goes with it
        }
        ctx.status(204);
    }

    private Session authorised(Context ctx) {
        return authorised(sessions, clients, ctx);
    }

    /** The session of the path's id, if the request's bearer is its token or the secret API key that owns it. */
    static Session authorised(SessionManager sessions, Clients clients, Context ctx) {
        return sessions.open(ctx.pathParam("id"), clients.sessionKey(bearer(ctx)));
    }

    /** The request's bearer token; without one, no session is found. */
    static String bearer(Context ctx) {
        return bearerToken(ctx).orElseThrow(SessionNotFoundException::new);
    }

    /** The request's bearer token, if it sends one. */
    static java.util.Optional<String> bearerToken(Context ctx) {
        String header = ctx.header("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(header.substring(7).trim());
    }

    /** The request's cell, checked before anything runs: a bad one is a {@code CellRefusedException} (400). */
    private Cell cell(ExecuteRequest request) {
        return sessions.cellLimits().cell(request.code()).language(request.language()).packages(request.packages())
                .timeoutSeconds(request.timeoutSeconds()).input(CellInput.lines(request.stdin())).build();
    }

    private void checkFiles(List<ExecuteRequest.InputFile> files) {
        long total = 0;
        java.util.Set<String> names = new java.util.HashSet<>();
        for (ExecuteRequest.InputFile f : files) {
            try {
                WorkspaceNames.check(f.name());
            } catch (IllegalArgumentException e) {
                throw new ApiErrors.BadRequest("file '" + f.name() + "': " + e.getMessage());
            }
            if (!names.add(f.name())) {
                throw new ApiErrors.BadRequest("file '" + f.name() + "' is given twice");
            }
            if (!BASE64.matcher(f.contentBase64()).matches()) {
                throw new ApiErrors.BadRequest("file '" + f.name() + "': content_base64 is not base64");
            }
            total += f.contentBase64().length() / 4L * 3;
        }
        if (total > settings.maxInputFilesBytes()) {
            throw new ApiErrors.BadRequest("files exceed " + settings.maxInputFilesBytes() + " bytes in total");
        }
    }

    private static final java.util.regex.Pattern BASE64 = java.util.regex.Pattern.compile("[A-Za-z0-9+/]*={0,2}");

    private static long parseLong(String value, long fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new ApiErrors.BadRequest("'" + value + "' is not a whole number");
        }
    }

    static void json(Context ctx, int status, String body) {
        ctx.status(status).contentType("application/json").result(body);
    }
}
