package dev.codeinterp.server.mcp;

import dev.codeinterp.model.ExecuteResponse;
import dev.codeinterp.model.Language;
import dev.codeinterp.server.config.Settings;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.session.ReturnedFiles;
import dev.codeinterp.server.session.Client;
import dev.codeinterp.server.packages.PackageRefusedException;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.session.SessionManager;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * run_code and the session lifecycle tools. Runs go through the same SessionManager calls, checks
 * and admission as REST's execute; sessions are made and closed only through {@link McpSessions},
 * which keeps their tokens.
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
        String code = args.requiredString("code");
        Language language;
        try {
            language = Language.fromWire(args.optionalString("language"));
        } catch (IllegalArgumentException e) {
            throw new ToolError(e.getMessage());
        }
        if (code.getBytes(StandardCharsets.UTF_8).length > settings.maxCodeBytes()) {
            throw new ToolError("code is larger than " + settings.maxCodeBytes() + " bytes");
        }
        Duration timeout = timeout(args.optionalNumber("timeout"));
        List<String> packages = args.optionalStrings("packages");
        try {
            sessions.checkPackages(language, packages); // refused before any sandbox is taken
        } catch (PackageRefusedException e) {
            throw new ToolError(e.getMessage());
        }
        String sessionId = args.optionalString("session_id");
        Object progressToken = request.meta() == null ? null : request.meta().get("progressToken");
        if (sessionId != null) {
            Session session = mcpSessions.open(exchange.sessionId(), sessionId);
            return results.of(run(exchange, session, code, language, timeout, packages, progressToken));
        }
        // REST's one-shot, step by step rather than through sessions.executeOnce: progress needs the session it runs in
        SessionManager.Created created = sessions.create(McpEndpoint.client(exchange), true);
        Session session = created.session();
        try {
            Map<String, Workspace.Stamp> before = session.workspace().snapshot();
            ExecuteResponse ran = run(exchange, session, code, language, timeout, packages, progressToken);
            return results.of(ran.withFiles(ReturnedFiles.since(session.workspace(), before, settings.maxReturnedFilesBytes(), "run in a session and read them")));
        } finally {
            sessions.close(session);
        }
    }

    private ExecuteResponse run(McpSyncServerExchange exchange, Session session, String code, Language language, Duration timeout,
                               List<String> packages, Object progressToken) {
        ProgressRelay relay = progressToken == null ? null
                : new ProgressRelay(code, progressToken, exchange::progressNotification, progressSender);
        if (relay != null) {
            session.subscribe(session.lastSeq(), relay);
        }
        try {
            return sessions.execute(session, code, language, packages, timeout);
        } finally {
            if (relay != null) {
                session.unsubscribe(relay);
            }
        }
    }

    CallToolResult createSession(McpSyncServerExchange exchange, CallToolRequest request) {
        Client client = McpEndpoint.client(exchange);
        SessionManager.Created created = sessions.create(client, false);
        try {
            mcpSessions.adopt(exchange.sessionId(), created.session().id(), created.token());
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

    private Duration timeout(Double seconds) {
        try {
            return settings.timeoutFor(seconds);
        } catch (IllegalArgumentException e) {
            throw new ToolError(e.getMessage());
        }
    }

    static CallToolResult done(String message) {
        return CallToolResult.builder().addContent(new TextContent(message)).build();
    }
}
