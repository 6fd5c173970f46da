package dev.codeinterp.server.mcp;

import dev.codeinterp.model.Event;
import dev.codeinterp.server.config.Settings;
import dev.codeinterp.server.session.Cell;
import dev.codeinterp.server.session.Client;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.session.CreatedSession;
import dev.codeinterp.server.session.SessionManager;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * run_code and the session lifecycle tools. Runs are the same SessionManager calls, cell checks and
 * admission as REST's execute, with MCP's progress notifications; sessions are made and closed only
 * through {@link McpSessions}, which keeps their tokens.
 */
final class CodeTools {
    private final SessionManager sessions;
    private final McpSessions mcpSessions;
    private final Settings settings;
    private final RunResults results;
    private final Executor progressSender;

    CodeTools(SessionManager sessions, McpSessions mcpSessions, Settings settings, RunResults results, Executor progressSender) {
        this.sessions = sessions;
        this.mcpSessions = mcpSessions;
        this.settings = settings;
        this.results = results;
        this.progressSender = progressSender;
    }

    CallToolResult runCode(McpSyncServerExchange exchange, CallToolRequest request) {
        Args args = Args.of(request.arguments());
        Cell cell = sessions.cellLimits().cell(args.requiredString("code")).language(args.optionalString("language"))
                .timeoutSeconds(args.optionalNumber("timeout")).packages(args.optionalStrings("packages")).build();
        String sessionId = args.optionalString("session_id");
        Consumer<Event> progress = progress(exchange, request);
        if (sessionId != null) {
            Session session = mcpSessions.open(exchange.sessionId(), sessionId);
            return afterProgress(progress, results.of(sessions.execute(session, cell, progress)));
        }
        return afterProgress(progress, results.of(sessions.executeOnce(McpEndpoint.client(exchange), cell, List.of(),
                settings.maxReturnedFilesBytes(), "run in a session and read them", progress)));
    }

    /** The result once the cell's progress notifications are out (they would be dropped after it). */
    private static CallToolResult afterProgress(Consumer<Event> progress, CallToolResult result) {
        if (progress instanceof ProgressRelay relay) {
            relay.drain(2000);
        }
        return result;
    }

    /** The cell's output as progress notifications, when the client asked for them with a progress token. */
    private Consumer<Event> progress(McpSyncServerExchange exchange, CallToolRequest request) {
        Object progressToken = request.meta() == null ? null : request.meta().get("progressToken");
        return progressToken == null ? SessionManager.NO_PROGRESS
                : new ProgressRelay(progressToken, exchange::progressNotification, progressSender);
    }

    CallToolResult createSession(McpSyncServerExchange exchange, CallToolRequest request) {
        Client client = McpEndpoint.client(exchange);
        return adopted(exchange, sessions.create(client, false));
    }

    CallToolResult forkSession(McpSyncServerExchange exchange, CallToolRequest request) {
        Session source = mcpSessions.open(exchange.sessionId(), Args.of(request.arguments()).requiredString("session_id"));
        return adopted(exchange, sessions.residency().fork(source, McpEndpoint.client(exchange)));
    }

    /** A session made for this MCP session: recorded as its own (its token is not kept), or closed again if it cannot be. */
    private CallToolResult adopted(McpSyncServerExchange exchange, CreatedSession created) {
        try {
            mcpSessions.adopt(exchange.sessionId(), created.session().id());
        } catch (RuntimeException e) {
            sessions.close(created.session());
            throw e;
        }
        String id = created.session().id();
        return CallToolResult.builder()
                .addContent(new TextContent("session_id: " + id))
                .structuredContent(Map.of("session_id", id))
                .build();
    }

    CallToolResult closeSession(McpSyncServerExchange exchange, CallToolRequest request) {
        String id = Args.of(request.arguments()).requiredString("session_id");
        mcpSessions.close(exchange.sessionId(), id);
        return done("session " + id + " is closed");
    }

    CallToolResult interrupt(McpSyncServerExchange exchange, CallToolRequest request) {
        String id = Args.of(request.arguments()).requiredString("session_id");
        mcpSessions.open(exchange.sessionId(), id).interrupt();
        return done("interrupt sent to session " + id);
    }

    CallToolResult restart(McpSyncServerExchange exchange, CallToolRequest request) {
        String id = Args.of(request.arguments()).requiredString("session_id");
        mcpSessions.open(exchange.sessionId(), id).restart();
        return done("session " + id + " is restarting with a fresh interpreter; its variables are gone, its files stay");
    }

    static CallToolResult done(String message) {
        return CallToolResult.builder().addContent(new TextContent(message)).build();
    }
}
