package dev.codeinterp.server;

import ch.qos.logback.classic.LoggerContext;
import dev.codeinterp.server.api.DownloadLinks;
import dev.codeinterp.server.api.WebServer;
import dev.codeinterp.server.assistant.Assistant;
import dev.codeinterp.server.cluster.NodeIdTakenException;
import dev.codeinterp.server.cluster.NodeIdentity;
import dev.codeinterp.server.cluster.McpSessionCatalog;
import dev.codeinterp.server.cluster.NodeDrain;
import dev.codeinterp.server.cluster.NodeRegistry;
import dev.codeinterp.server.cluster.SessionHandover;
import dev.codeinterp.server.config.AssistantSettings;
import dev.codeinterp.server.config.RuntimeChoice;
import dev.codeinterp.server.config.Settings;
import dev.codeinterp.server.files.Workspaces;
import dev.codeinterp.server.metrics.ServerMetrics;
import dev.codeinterp.server.sandbox.DockerSandboxBackend;
import dev.codeinterp.server.sandbox.SandboxPool;
import dev.codeinterp.server.sandbox.WarmTemplate;
import dev.codeinterp.server.packages.Packages;
import dev.codeinterp.server.sandbox.SandboxSpec;
import dev.codeinterp.server.session.InstallStep;
import dev.codeinterp.server.session.Admission;
import dev.codeinterp.server.session.AdmissionLimits;
import dev.codeinterp.server.session.ExecutionLimits;
import dev.codeinterp.server.session.RestartPolicy;
import dev.codeinterp.server.session.CellActivity;
import dev.codeinterp.server.session.CellLimits;
import dev.codeinterp.server.session.SessionIndex;
import dev.codeinterp.server.session.SessionManager;
import dev.codeinterp.server.session.SuspendPolicy;
import dev.codeinterp.server.store.Database;
import dev.codeinterp.server.store.EventRepository;
import dev.codeinterp.server.store.ExecutionRepository;
import dev.codeinterp.server.store.McpSessionRepository;
import dev.codeinterp.server.store.NodeRepository;
import dev.codeinterp.server.store.SessionDirectory;
import dev.codeinterp.server.store.SessionForks;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The composition root: reads settings and wires store, sandboxes, sessions and the web server. */
public final class Main implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Main.class);
    /** How long a stop with DRAIN_ON_STOP waits for the other nodes to take this one's sessions. */
    private static final java.time.Duration DRAIN_WITHIN = java.time.Duration.ofMinutes(10);
    /** How long a drained node still serves (forwarding) while the front door learns it is drained. */
    private static final java.time.Duration DRAINED_LINGER = java.time.Duration.ofSeconds(5);

    private final Database database;
    private final DockerSandboxBackend backend;
    private final SandboxPool pool;
    private final SessionManager sessions;
    private final WebServer web;
    private final ServerMetrics metrics;
    private final Assistant assistant;
    private final boolean engineAvailable;
    private final RuntimeChoice runtime;
    private final NodeRegistry node;
    private final NodeDrain drain;
    private final Settings settings;
    /** The port the web server listens on once started (PORT=0 picks a free one), else 0. */
    private volatile int servingPort;

    public Main(Settings settings) {
        this(settings, AssistantSettings.fromEnvironment(System.getenv()));
    }

    public Main(Settings settings, AssistantSettings assistantSettings) {
        this.settings = settings;
        // the store first: a database that cannot be reached ends the start before anything else is set up
        this.database = Database.open(settings.database(), settings.dataDir().resolve("codeinterp.db"));
        // gVisor where the engine has it, unless the setting says otherwise: asked before anything names the runtime
        this.runtime = RuntimeChoice.of(settings.runtime(), DockerSandboxBackend.registeredRuntimes(settings.dockerHost()));
        if (runtime.fallback()) {
            log.warn("runtime runc: {}", runtime.why());
        }
        this.metrics = new ServerMetrics(runtime.runtime());
        database.writer().onCommit(metrics::storeCommitted);
        Packages packages = Packages.from(settings.packages());
        this.backend = DockerSandboxBackend.connect(SandboxSpec.from(settings, runtime.runtime(), packages.sandboxMount()),
                settings.dockerHost(), deploymentId(settings));
        var engine = backend.info();
        this.engineAvailable = engine.available();
        if (!engine.available()) {
            log.warn("server mode unavailable: {}", engine.problem());
        }
        NodeIdentity identity = NodeIdentity.of(settings.node(), settings.dataDir());
        Workspaces workspaces = new Workspaces(settings.dataDir().resolve("workspaces"), settings.workspaceBytes());
        // the pool refills in the quiet between cells, as the sessions report them
        CellActivity cells = new CellActivity();
        this.pool = new SandboxPool(backend, workspaces, engine.available() ? settings.poolSize() : 0, metrics,
                cells::quiet, warmTemplate(settings, workspaces));
        CellLimits cellLimits = new CellLimits(settings.maxCodeBytes(), settings.defaultTimeout(), settings.maxTimeout());
        this.sessions = new SessionManager(pool, workspaces, new SessionRepository(database, identity.id()), new ExecutionRepository(database),
                new EventRepository(database),
                new ExecutionLimits(settings.outputCapBytes(), settings.interruptGrace(), settings.memoryBytes(),
                        settings.maxQueuedCells(), RestartPolicy.DEFAULT, settings.inputTimeout()),
                cellLimits, runtime.runtime(), settings.idleTtl(),
                new Admission(new AdmissionLimits(settings.maxSessions(), settings.maxSessionsPerClient(),
                        settings.maxQueuedCells(), settings.maxConcurrentCreates())),
                new DownloadLinks(), metrics, new InstallStep(packages), cells,
                new SuspendPolicy(settings.dataDir().resolve("suspended"), settings.suspend().after(), settings.suspend().keptFor(),
                        settings.suspend().diskBytes()), new SessionForks(database));
        metrics.watchPool(pool::idleCount, pool::target);
        metrics.watchSessions(sessions::liveCount);
        this.assistant = new Assistant(assistantSettings, cellLimits);
        if (assistant.enabled()) {
            log.info("assistant: model {} at {}", assistantSettings.model(), assistantSettings.baseUrl());
        }
        NodeRepository nodeRows = new NodeRepository(database);
        this.node = new NodeRegistry(nodeRows, identity, settings.node(),
                this::nodeUrl,
                runtime.runtime(), settings.maxSessions());
        // a session's folder as it arrives: its checkpoint (at most its memory) and its files
        SessionHandover handover = new SessionHandover(nodeRows, identity, sessions,
                settings.memoryBytes() * 2 + settings.workspaceBytes() + (64L << 20));
        McpSessionCatalog mcpSessions = new McpSessionCatalog(new McpSessionRepository(database), nodeRows, identity, settings.node());
        this.drain = new NodeDrain(node, nodeRows, sessions, handover, settings.node(), runtime.runtime(), mcpSessions);
        this.web = new WebServer(settings, runtime, sessions, new SessionIndex(sessions, new SessionDirectory(database)), backend, pool, metrics,
                assistant, node, handover, mcpSessions);
    }

    /** Where other nodes and the front door reach this one: the setting, else our address and port (known once serving). */
    private String nodeUrl() {
        return settings.node().urlOr(settings.host(), servingPort > 0 ? servingPort : settings.port());
    }

    /** Where new sandboxes start from: the warm template when asked for and checkpoints work here; else null (a cold runner). */
    private WarmTemplate warmTemplate(Settings settings, Workspaces workspaces) {
        if (settings.template().equals("none")) {
            return null;
        }
        var support = backend.checkpoints();
        if (!support.supported()) {
            log.warn("TEMPLATE={} is ignored: {}", settings.template(), support.why());
            return null;
        }
        return new WarmTemplate(backend, workspaces, settings.dataDir().resolve("templates"));
    }

    /** A deployment is its data directory: one server process at a time owns it and its sandboxes. */
    static String deploymentId(Settings settings) {
        String path = settings.dataDir().toAbsolutePath().normalize().toString();
        return dev.codeinterp.server.session.Tokens.hash(path).substring(0, 16);
    }

    public Main start(Settings settings) {
        // registered before its sessions start: a lost predecessor's sessions are marked lost, not adopted
        node.start(sessions::liveCount, sessions::nodeLost, sessions::disowned);
        // without an engine there is nothing to adopt: each try would only wait out a connect timeout
        var adopted = sessions.start(settings.reapInterval(), engineAvailable);
        if (engineAvailable) {
            backend.reapOrphans(adopted); // after adoption: what no session took over is garbage
        }
        pool.start();
        web.start();
        servingPort = web.port();
        node.serving();
        log.info("serving on http://localhost:{} (runtime {}, chosen by {}, image {})", web.port(), runtime.runtime(),
                runtime.chosenBy().wire(), settings.image());
        return this;
    }

    public int port() {
        return web.port();
    }

    public SessionManager sessions() {
        return sessions;
    }

    public SandboxPool pool() {
        return pool;
    }

    public DockerSandboxBackend backend() {
        return backend;
    }

    /**
     * Moves every session of this node to the others (see {@link NodeDrain}), waiting at most
     * {@code within}; the caller stops the server after. Sessions no node took stay here, suspended.
     */
    public NodeDrain.Result drain(java.time.Duration within) {
        NodeDrain.Result result = drain.run(within);
        if (result.left() == 0) {
            // /healthz says drained now: the front door's checks (every second, three to fall) stop sending this
            // node its old session ids; until then what comes is forwarded, then the server stops
            try {
                Thread.sleep(DRAINED_LINGER.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return result;
    }

    /**
     * Stops in dependency order: no new requests, then sessions, then sandboxes, then the store.
     * Sessions' sandboxes stay running, with their variables, for the next process to adopt.
     */
    @Override
    public void close() {
        close(false);
    }

    /** As {@link #close()}, and every session's sandbox removed too: this deployment is done for good (tests). */
    public void closeRemovingSandboxes() {
        close(true);
    }

    private void close(boolean removeSandboxes) {
        try {
            web.close();
            assistant.close();
        } finally {
            try {
                if (removeSandboxes) {
                    sessions.closeRemovingSandboxes();
                } else {
                    sessions.close();
                }
            } finally {
                try {
                    pool.close();
                    backend.close();
                } finally {
                    try {
                        node.close();
                    } finally {
                        database.close();
                    }
                }
            }
        }
    }

    public static void main(String[] args) {
        if (args.length > 0) {
            System.exit(Commands.run(args, System.out, System.err));
        }
        Settings settings;
        try {
            settings = Settings.fromEnvironment(System.getenv());
        } catch (IllegalArgumentException e) {
            // a setting the operator can fix: its message is the whole story, a stack trace only hides it
            System.err.println("codeinterp: " + e.getMessage());
            System.exit(2);
            return;
        }
        Main main;
        try {
            main = new Main(settings).start(settings);
        } catch (StoreUnavailableException | NodeIdTakenException e) {
            // a wrong address, an unknown database, a refused password, a node id in use: said in one line, without the password
            System.err.println("codeinterp: " + e.getMessage());
            System.exit(2);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (settings.node().drainOnStop()) {
                main.drain(DRAIN_WITHIN);
            }
            main.close();
            stopLogging();
        }, "shutdown"));
    }

    /** The log is written by a background thread (logback.xml): what is still queued is written now, last. */
    private static void stopLogging() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext logging) {
            logging.stop();
        }
    }
}
