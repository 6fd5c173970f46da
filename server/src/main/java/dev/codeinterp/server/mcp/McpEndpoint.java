package dev.codeinterp.server.mcp;

import dev.codeinterp.server.cluster.McpSessionCatalog;
import dev.codeinterp.server.config.Settings;
import dev.codeinterp.server.files.WorkspaceException;
import dev.codeinterp.server.packages.PackageRefusedException;
import dev.codeinterp.server.session.CellRefusedException;
import dev.codeinterp.server.session.CheckpointUnavailableException;
import dev.codeinterp.server.session.Client;
import dev.codeinterp.server.session.LimitExceededException;
import dev.codeinterp.server.session.SessionBusyException;
import dev.codeinterp.server.session.SessionClosedException;
import dev.codeinterp.server.session.SessionManager;
import dev.codeinterp.server.session.SessionNotFoundException;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import jakarta.servlet.DispatcherType;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;

/**
 * The MCP server at {@code /mcp}: the official SDK's Streamable HTTP transport as a servlet on the
 * app's own Jetty, behind {@link McpGate}, serving the code tools and the file tools. Tool failures
 * become tool results with {@code isError} and a message a model can act on, never HTTP errors.
 */
public final class McpEndpoint implements AutoCloseable {
    public static final String PATH = "/mcp";
    private static final Logger log = LoggerFactory.getLogger(McpEndpoint.class);

    private final HttpServletStreamableServerTransportProvider transport;
    private final McpSyncServer server;
    private final McpSessions mcpSessions;
    private final McpGate gate;
    private final McpForwarding forwarding;
    private final ExecutorService progressSender = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "mcp-progress");
        t.setDaemon(true);
        return t;
    });

    /**
     * {@code mcpCatalog}: the store's record of MCP sessions, and this node's id, which the MCP session
     * ids it hands out carry (the front door routes on it).
     */
    public McpEndpoint(Settings settings, SessionManager sessions, Authenticator authenticator, McpSessionCatalog mcpCatalog) {
        McpJsonMapper json = McpJsonDefaults.getMapper();
        this.mcpSessions = new McpSessions(sessions, mcpCatalog, settings.idleTtl(), settings.reapInterval());
        this.forwarding = new McpForwarding(mcpCatalog);
        this.gate = new McpGate(authenticator, mcpSessions, new McpSessionIds(mcpCatalog.node()), mcpCatalog, forwarding);
        this.transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(json)
                .mcpEndpoint(PATH)
                .maxRequestSize((int) Math.min(Integer.MAX_VALUE, FileTools.maxRequestBytes(settings)))
                .contextExtractor(req -> req.getAttribute(McpGate.CLIENT) instanceof Client client
                        ? McpTransportContext.create(Map.of(McpGate.CLIENT, client)) : McpTransportContext.EMPTY)
                .build();
        ToolCatalog catalog = new ToolCatalog(json);
        CodeTools code = new CodeTools(sessions, mcpSessions, settings, new RunResults(json), progressSender);
        FileTools files = new FileTools(mcpSessions, settings, json);
        this.server = McpServer.sync(transport)
                .serverInfo("codeinterp", "0.1.0")
                .instructions("Runs Python, JavaScript and bash code in isolated, offline sandboxes. Use run_code for one-off computations; "
                        + "create_session when state or uploaded files must persist across calls.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .jsonMapper(json)
                .tools(tool(catalog.runCode(), code::runCode),
                        tool(catalog.createSession(), code::createSession),
                        tool(catalog.forkSession(), code::forkSession),
                        tool(catalog.closeSession(), code::closeSession),
                        tool(catalog.interrupt(), code::interrupt),
                        tool(catalog.restart(), code::restart),
                        tool(catalog.uploadFile(), files::upload),
                        tool(catalog.listFiles(), files::list),
                        tool(catalog.readFile(), files::read))
                .build();
        mcpSessions.sdk(new SdkSessions(transport, PATH));
        mcpCatalog.heldBy(mcpSessions::whileHeld);
    }

    /** Mounts the transport servlet and its gate on the app's servlet context, beside Javalin's own servlet. */
    public void install(ServletContextHandler context) {
        ServletHolder servlet = new ServletHolder("mcp", transport);
        servlet.setAsyncSupported(true);
        context.addServlet(servlet, PATH);
        FilterHolder filter = new FilterHolder(gate);
        filter.setAsyncSupported(true);
        context.addFilter(filter, PATH, EnumSet.of(DispatcherType.REQUEST));
    }

    /** The client {@link McpGate} authenticated for the request this exchange belongs to. */
    static Client client(McpSyncServerExchange exchange) {
        if (exchange.transportContext().get(McpGate.CLIENT) instanceof Client client) {
            return client;
        }
        throw new IllegalStateException("no authenticated client on this MCP request");
    }

    private static SyncToolSpecification tool(Tool tool, BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler) {
        return new SyncToolSpecification(tool, (exchange, request) -> {
            try {
                return handler.apply(exchange, request);
            } catch (RuntimeException e) {
                return failure(tool.name(), e);
            }
        });
    }

    private static CallToolResult failure(String tool, RuntimeException e) {
        String message;
        if (e instanceof ToolError || e instanceof CellRefusedException || e instanceof PackageRefusedException
                || e instanceof SessionClosedException || e instanceof WorkspaceException || e instanceof SessionBusyException
                || e instanceof CheckpointUnavailableException) {
            message = e.getMessage();
        } else if (e instanceof SessionNotFoundException) {
            message = "no such session: session_id must come from create_session in this same MCP session, and the session must still be open";
        } else if (e instanceof LimitExceededException limit) {
            message = limit.getMessage() + " (retry after " + limit.retryAfterSeconds() + " s)";
        } else {
            log.warn("MCP tool {} failed", tool, e);
            message = "the server could not do this: " + e.getMessage();
        }
        return CallToolResult.builder().addContent(new McpSchema.TextContent(message)).isError(true).build();
    }

    @Override
    public void close() {
        try {
            server.closeGracefully();
        } catch (RuntimeException e) {
            log.debug("MCP server did not close cleanly: {}", e.getMessage());
        } finally {
            mcpSessions.close();
            forwarding.close();
            progressSender.shutdownNow();
        }
    }
}
