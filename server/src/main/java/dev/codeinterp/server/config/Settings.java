package dev.codeinterp.server.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Everything the server can be told, read once at start from environment variables
 * ({@code CODEINTERP_*}) and validated, so a typo fails the start instead of a request.
 * {@code runtime} is the setting as given, null when unset: {@link RuntimeChoice} turns it into the
 * runtime sessions get, once the engine has said which runtimes it has.
 */
public record Settings(
        String host,
        int port,
        Path dataDir,
        String image,
        String runtime,
        int poolSize,
        Duration idleTtl,
        Duration reapInterval,
        Duration defaultTimeout,
        Duration maxTimeout,
        Duration interruptGrace,
        long outputCapBytes,
        long memoryBytes,
        double cpus,
        int processLimit,
        long workspaceBytes,
        long tmpBytes,
        BrowserAccess browserAccess,
        long maxCodeBytes,
        long maxInputFilesBytes,
        long maxUploadBytes,
        long maxReturnedFilesBytes,
        String pyodidePackagesUrl,
        Path wheelhouseDir,
        String dockerHost,
        List<ApiKey> apiKeys,
        boolean allowAnonymous,
        int maxSessions,
        int maxSessionsPerClient,
        int maxQueuedCells,
        int maxConcurrentCreates,
        EmbedOrigins embedOrigins,
        Duration inputTimeout,
        PackageSettings packages,
        DatabaseSettings database,
        SuspendSettings suspend,
        String template,
        NodeSettings node,
        TrustedProxies trustedProxies) {

    public static final List<String> RUNTIMES = List.of("runc", "runsc");
    /** What new sandboxes start from: a cold runner ({@code none}), or a checkpoint of one with numpy, pandas and matplotlib loaded. */
    public static final List<String> TEMPLATES = List.of("none", "pydata");

    public Settings {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
        if (runtime != null && !RUNTIMES.contains(runtime)) {
            throw new IllegalArgumentException("runtime must be one of " + RUNTIMES + ", got " + runtime);
        }
        if (!TEMPLATES.contains(template)) {
            throw new IllegalArgumentException("TEMPLATE must be one of " + TEMPLATES + ", got " + template);
        }
        if (poolSize < 0 || poolSize > maxSessions) {
            // warm sandboxes cost ~8 MiB each while idle; more than MAX_SESSIONS could never be handed out
            throw new IllegalArgumentException("pool size must be 0..MAX_SESSIONS (" + maxSessions + "), got " + poolSize);
        }
        if (defaultTimeout.compareTo(maxTimeout) > 0) {
            throw new IllegalArgumentException("default timeout exceeds the maximum timeout");
        }
        if (outputCapBytes < 1024) {
            throw new IllegalArgumentException("output cap must be at least 1 KiB");
        }
        if (memoryBytes < 64L << 20) {
            throw new IllegalArgumentException("sandbox memory must be at least 64 MiB");
        }
        if (cpus <= 0) {
            throw new IllegalArgumentException("cpus must be positive");
        }
        if (maxSessions < 1 || maxSessionsPerClient < 1 || maxQueuedCells < 1 || maxConcurrentCreates < 1) {
            throw new IllegalArgumentException("MAX_SESSIONS, MAX_SESSIONS_PER_CLIENT, MAX_QUEUED_CELLS and "
                    + "MAX_CONCURRENT_CREATES must be at least 1");
        }
        if (inputTimeout.isNegative() || inputTimeout.isZero()) {
            throw new IllegalArgumentException("INPUT_TIMEOUT must be positive");
        }
        apiKeys = List.copyOf(apiKeys);
        if (!isLoopback(host) && apiKeys.isEmpty() && !allowAnonymous) {
            throw new IllegalArgumentException("refusing to listen on " + host + " without API keys: anyone who can reach it "
                    + "could run code here. Set CODEINTERP_API_KEYS to a keys file (see README, 'Running it for a team'), "
                    + "or CODEINTERP_ALLOW_ANONYMOUS=true if this network is trusted, or CODEINTERP_HOST=127.0.0.1");
        }
    }

    /** Whether API keys guard session creation and one-shot execution. */
    public boolean keysRequired() {
        return !apiKeys.isEmpty();
    }

    /** Only this machine can connect: a loopback literal or the name localhost (never resolved through DNS). */
    static boolean isLoopback(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if ("localhost".equalsIgnoreCase(h)) {
            return true;
        }
        if (!h.matches("[0-9.]+|[0-9A-Fa-f:.]+")) {
            return false; // a name: it could resolve to anything
        }
        try {
            return java.net.InetAddress.getByName(h).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** Defaults, overridden by {@code CODEINTERP_*} variables of {@code env}. */
    public static Settings fromEnvironment(Map<String, String> env) {
        EnvReader r = new EnvReader(env);
        return new Settings(
                r.string("HOST", "127.0.0.1"),
                r.integer("PORT", 8080),
                Path.of(r.string("DATA_DIR", "data")).toAbsolutePath(),
                r.string("IMAGE", "codeinterp-sandbox:latest"),
                r.string("RUNTIME", null), // unset: chosen at start from the engine's runtimes (RuntimeChoice)
                r.integer("POOL_SIZE", 2),
                r.duration("IDLE_TTL", Duration.ofHours(1)),
                r.duration("REAP_INTERVAL", Duration.ofSeconds(30)),
                r.duration("TIMEOUT", Duration.ofSeconds(30)),
                r.duration("MAX_TIMEOUT", Duration.ofMinutes(10)),
                r.duration("INTERRUPT_GRACE", Duration.ofSeconds(2)),
                r.bytes("OUTPUT_CAP", 1L << 20),
                r.bytes("MEMORY", 1L << 30),
                r.decimal("CPUS", 1.0),
                r.integer("PROCESS_LIMIT", 256),
                r.bytes("WORKSPACE_SIZE", 1L << 30),
                r.bytes("TMP_SIZE", 256L << 20),
                BrowserAccess.parse(r.string("HOST", "127.0.0.1"), r.list("ALLOWED_HOSTS"), r.list("ALLOWED_ORIGINS")),
                r.bytes("MAX_CODE", 1L << 20),
                r.bytes("MAX_INPUT_FILES", 32L << 20),
                r.bytes("MAX_UPLOAD", 100L << 20),
                r.bytes("MAX_RETURNED_FILES", 32L << 20),
                r.string("PYODIDE_PACKAGES_URL", "/pyodide/"),
                Path.of(r.string("WHEELHOUSE", r.string("DATA_DIR", "data") + "/wheelhouse")).toAbsolutePath(),
                r.string("DOCKER_HOST", null),
                r.string("API_KEYS", null) == null ? List.of() : ApiKeysFile.read(Path.of(r.string("API_KEYS", null))),
                r.bool("ALLOW_ANONYMOUS", false),
                r.integer("MAX_SESSIONS", 1000),
                r.integer("MAX_SESSIONS_PER_CLIENT", 250),
                r.integer("MAX_QUEUED_CELLS", 32),
                r.integer("MAX_CONCURRENT_CREATES", 8),
                EmbedOrigins.parse(r.list("EMBED_ORIGINS")),
                r.duration("INPUT_TIMEOUT", Duration.ofMinutes(5)),
                PackageSettings.read(r, Path.of(r.string("DATA_DIR", "data")).toAbsolutePath()),
                DatabaseSettings.read(r),
                SuspendSettings.read(r),
                r.string("TEMPLATE", "none"),
                NodeSettings.read(r),
                TrustedProxies.parse(r.list("TRUSTED_PROXIES")));
    }
}
