package dev.codeinterp.server.api;

import dev.codeinterp.model.health.Health;
import dev.codeinterp.server.assistant.Assistant;
import dev.codeinterp.server.cluster.McpSessionCatalog;
import dev.codeinterp.server.cluster.NodeRegistry;
import dev.codeinterp.server.cluster.SessionHandover;
import dev.codeinterp.server.config.RuntimeChoice;
import dev.codeinterp.server.config.Settings;
import dev.codeinterp.server.mcp.Authenticator;
import dev.codeinterp.server.mcp.McpEndpoint;
import dev.codeinterp.server.metrics.ServerMetrics;
import dev.codeinterp.server.sandbox.SandboxBackend;
import dev.codeinterp.server.sandbox.SandboxPool;
import dev.codeinterp.server.session.SessionElsewhereException;
import dev.codeinterp.server.session.SessionIndex;
import dev.codeinterp.server.session.SessionManager;
import io.javalin.Javalin;
import io.javalin.config.SizeUnit;
import io.javalin.http.staticfiles.Location;

import java.net.URI;

/** The Javalin app: routes as method references to handler instances, security headers on every answer. */
public final class WebServer implements AutoCloseable {
    private final Javalin app;
    private final SessionSocket socket;
    private final McpEndpoint mcp;
    private final SessionForwarding forwarding;
    private final SocketRelay relays;

    public WebServer(Settings settings, RuntimeChoice runtime, SessionManager sessions, SessionIndex index, SandboxBackend backend, SandboxPool pool, ServerMetrics metrics,
                     Assistant assistant, NodeRegistry node, SessionHandover handover, McpSessionCatalog mcpSessions) {
        Clients clients = new Clients(settings);
        MetricsApi metricsApi = new MetricsApi(metrics, clients);
        OpenApiDocument openApi = new OpenApiDocument();
        RestApi rest = new RestApi(sessions, settings, clients, index);
        FilesApi workspaceFiles = new FilesApi(sessions, settings, clients);
        NotebookApi notebooks = new NotebookApi(sessions, clients);
        AssistantRelayPage relay = new AssistantRelayPage();
        HandoverApi handovers = new HandoverApi(handover);
        HealthApi health = new HealthApi(backend, runtime, pool, sessions, settings.keysRequired(),
                assistant.enabled() ? new Health.Assistant(true, assistant.model()) : Health.Assistant.OFF, node);
        BrowserAccessFilter browserAccess = new BrowserAccessFilter(settings.browserAccess());
        this.forwarding = new SessionForwarding(node, clients);
        this.relays = new SocketRelay(node, clients);
        this.socket = new SessionSocket(sessions, settings, metrics, assistant, relays, clients);
        this.mcp = new McpEndpoint(settings, sessions, (header, peer, forwardedFor) -> {
            try {
                return clients.of(header, settings.trustedProxies().client(peer, forwardedFor));
            } catch (Clients.Unauthorized e) {
                throw new Authenticator.Refused(e.getMessage());
            }
        }, mcpSessions);
        this.app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.jetty.host = settings.host();
            config.jetty.port = settings.port();
            config.jetty.modifyServer(server -> server.setErrorHandler(new JsonErrorPages()));
            config.jetty.modifyServletContextHandler(new NodeHeader(node.id())::install);
            config.jetty.modifyServletContextHandler(browserAccess::install);
            config.jetty.modifyServletContextHandler(mcp::install);
            // Jetty's per-connection header cache matches values ignoring case by default: a key or token
            // differing from an earlier one on the same connection only in case was read as the earlier one
            config.jetty.modifyHttpConfiguration(http -> http.setHeaderCacheCaseSensitive(true));
            config.jetty.multipartConfig.cacheDirectory(settings.dataDir().resolve("uploads").toString());
            config.jetty.multipartConfig.maxFileSize(settings.maxUploadBytes(), SizeUnit.BYTES);
            config.jetty.multipartConfig.maxTotalRequestSize(settings.maxUploadBytes() + (64 << 10), SizeUnit.BYTES);
            config.jetty.multipartConfig.maxInMemoryFileSize(256, SizeUnit.KB);
            config.http.maxRequestSize = settings.maxCodeBytes() * 6 + settings.maxInputFilesBytes() * 2 + (64 << 10);
            config.jetty.modifyWebSocketServletFactory(ws -> {
                ws.setMaxTextMessageSize(settings.maxCodeBytes() * 6 + (64 << 10));
                ws.setMaxBinaryMessageSize(1024);
            });
            if (WebServer.class.getResource("/public/index.html") != null) {
                config.staticFiles.add(files -> {
                    files.hostedPath = "/";
                    files.directory = "/public";
                    files.location = Location.CLASSPATH;
                });
            }
            LocalRuntimeAssets.configure(config, settings);
            EmbedPage.configure(config, settings.embedOrigins());
            var routes = config.routes;
            ApiErrors.register(routes, metrics);
            routes.exception(SessionElsewhereException.class, forwarding::forwardMoved);
            String embedAncestors = settings.embedOrigins().csp();
            routes.before(RequestLog::begin);
            routes.before(ctx -> SecurityHeaders.apply(ctx, embedAncestors));
            routes.before(forwarding::forwardIfElsewhere);
            routes.after(RequestLog::end);
            routes.get(AssistantRelayPage.PATH, relay::page);
            routes.get("/healthz", health::health);
            routes.get("/healthz/room", health::room);
            routes.get("/metrics", metricsApi::scrape);
            openApi.register(routes);
            routes.post("/api/v1/execute", rest::executeOnce);
            routes.post("/api/v1/sessions", rest::createSession);
            routes.get("/api/v1/sessions", rest::listSessions);
            routes.post("/api/v1/sessions/{id}/execute", rest::executeInSession);
            routes.get("/api/v1/sessions/{id}/events", rest::history);
            routes.post("/api/v1/sessions/{id}/interrupt", rest::interrupt);
            routes.post("/api/v1/sessions/{id}/restart", rest::restart);
            routes.get("/api/v1/sessions/{id}", rest::describeSession);
            routes.patch("/api/v1/sessions/{id}", rest::retitle);
            routes.post("/api/v1/sessions/{id}/suspend", rest::suspend);
            routes.post("/api/v1/sessions/{id}/fork", rest::fork);
            routes.delete("/api/v1/sessions/{id}", rest::closeSession);
            routes.get("/api/v1/sessions/{id}/files", workspaceFiles::list);
            routes.post("/api/v1/sessions/{id}/files", workspaceFiles::upload);
            routes.put("/api/v1/sessions/{id}/files/{name}", workspaceFiles::put);
            routes.get("/api/v1/sessions/{id}/files/{name}", workspaceFiles::download);
            routes.delete("/api/v1/sessions/{id}/files/{name}", workspaceFiles::delete);
            routes.get("/api/v1/sessions/{id}/notebook.ipynb", notebooks::export);
            routes.ws("/api/v1/sessions/{id}/ws", socket::configure);
            routes.put(SessionHandover.PATH, handovers::arrive);
        });
    }

    public WebServer start() {
        app.start();
        return this;
    }

    public int port() {
        return app.port();
    }

    public URI uri() {
        return URI.create("http://localhost:" + port());
    }

    @Override
    public void close() {
        socket.close();
        mcp.close();
        app.stop();
        forwarding.close();
        relays.close();
    }
}
