package dev.codeinterp.model.health;

import dev.codeinterp.model.Limit;

import java.util.List;

/**
 * The answer of {@code /healthz}: whether code can run on this server, and if not, why; the runtime
 * sessions get and its version (null when unknown); the warm pool, the admission limits and how much
 * of them is in use; how that runtime was chosen ({@code runtimeChoice}). {@code status} and
 * {@code server_mode} on the wire follow from whether the engine is available. {@code runtimePlatform} is
 * gVisor's platform ({@code systrap}, {@code ptrace}, {@code kvm}) as the engine registers runsc, null
 * for runc or when the registration names none.
 */
public record Health(Engine docker, String runtime, String runtimeVersion, String image, Pool pool, int sessions,
                     boolean authRequired, Limits limits, Use use, Assistant assistant, Idle idle, RuntimeChoice runtimeChoice,
                     Cluster cluster, String runtimePlatform) {

    /** A server that does not say its runtime's platform (an older one, or runc). */
    public Health(Engine docker, String runtime, String runtimeVersion, String image, Pool pool, int sessions,
                  boolean authRequired, Limits limits, Use use, Assistant assistant, Idle idle, RuntimeChoice runtimeChoice,
                  Cluster cluster) {
        this(docker, runtime, runtimeVersion, image, pool, sessions, authRequired, limits, use, assistant, idle, runtimeChoice,
                cluster, null);
    }

    /** A server that does not say which node it is (an older one). */
    public Health(Engine docker, String runtime, String runtimeVersion, String image, Pool pool, int sessions,
                  boolean authRequired, Limits limits, Use use, Assistant assistant, Idle idle, RuntimeChoice runtimeChoice) {
        this(docker, runtime, runtimeVersion, image, pool, sessions, authRequired, limits, use, assistant, idle, runtimeChoice, null);
    }

    /** A server that does not say how its runtime was chosen (an older one). */
    public Health(Engine docker, String runtime, String runtimeVersion, String image, Pool pool, int sessions,
                  boolean authRequired, Limits limits, Use use, Assistant assistant, Idle idle) {
        this(docker, runtime, runtimeVersion, image, pool, sessions, authRequired, limits, use, assistant, idle, null);
    }

    /** A server that does not say what idle sessions become (an older one). */
    public Health(Engine docker, String runtime, String runtimeVersion, String image, Pool pool, int sessions,
                  boolean authRequired, Limits limits, Use use, Assistant assistant) {
        this(docker, runtime, runtimeVersion, image, pool, sessions, authRequired, limits, use, assistant, null);
    }

    /** A server without an assistant (an older one, or one with no model endpoint). */
    public Health(Engine docker, String runtime, String runtimeVersion, String image, Pool pool, int sessions,
                  boolean authRequired, Limits limits, Use use) {
        this(docker, runtime, runtimeVersion, image, pool, sessions, authRequired, limits, use, Assistant.OFF);
    }

    /** {@code ok} when sandboxes can be started, else {@code degraded} (local mode still works). */
    public String status() {
        return docker.available() ? "ok" : "degraded";
    }

    public boolean serverMode() {
        return docker.available();
    }

    /** The container engine; {@code version} is null and {@code problem} says why when it is not available. */
    public record Engine(boolean available, String version, List<String> runtimes, String problem) {
    }

    /** Started, idle sandboxes waiting for sessions; {@code problem} is the last start that failed, else null. */
    public record Pool(int ready, int target, String problem) {
    }

    /**
     * The admission limits (see {@link Limit}), and a cell's timeout: {@code timeoutMs} when it asks
     * none ({@code CODEINTERP_TIMEOUT}), {@code maxTimeoutMs} the most it may ask
     * ({@code CODEINTERP_MAX_TIMEOUT}); both 0 when unknown (an older server).
     */
    public record Limits(int sessions, int sessionsPerClient, int queuedCells, int concurrentCreates,
                         long timeoutMs, long maxTimeoutMs) {

        /** A server that does not say its cell timeouts (an older one). */
        public Limits(int sessions, int sessionsPerClient, int queuedCells, int concurrentCreates) {
            this(sessions, sessionsPerClient, queuedCells, concurrentCreates, 0, 0);
        }
    }

    /**
     * Whether prompts can go to a model endpoint, and which model; the endpoint and its key are never
     * shown. When off, {@code operatorNote} says what turns it on: words for the operator (they name
     * the server's settings), kept here and in the README rather than in every conversation.
     */
    public record Assistant(boolean enabled, String model, String operatorNote) {
        public static final String HOW_TO_ENABLE = "no model endpoint is configured: set CODEINTERP_LLM_BASE_URL and "
                + "CODEINTERP_LLM_MODEL to turn the assistant on (README, \"An assistant that writes the code\")";
        public static final Assistant OFF = new Assistant(false, null, HOW_TO_ENABLE);

        /** On with {@code model}, or {@link #OFF}'s note when off. */
        public Assistant(boolean enabled, String model) {
            this(enabled, model, enabled ? null : HOW_TO_ENABLE);
        }
    }

    /**
     * What becomes of a session left idle for {@code afterSeconds}: with {@code keepsVariables} it is
     * suspended to disk and its next use brings its variables back; otherwise it is closed (files and
     * history stay), and {@code why} says why variables cannot be kept here.
     */
    public record Idle(boolean keepsVariables, long afterSeconds, String why) {
    }

    /**
     * How the server came to its runtime: {@code chosenBy} is {@code default} (gVisor, found in the
     * engine), {@code setting} ({@code CODEINTERP_RUNTIME}) or {@code fallback} (runc, because the
     * engine has no gVisor); {@code why} in words.
     */
    public record RuntimeChoice(String runtime, String chosenBy, String why) {
        public static final String FALLBACK = "fallback";

        public boolean fallback() {
            return FALLBACK.equals(chosenBy);
        }
    }

    /**
     * This server as a node ({@code node}, in {@code state}: active, draining) and every node sharing
     * its store, counts only: each one's state (active, draining, stopped, lost), sessions, capacity,
     * and how long ago it was last heard from.
     */
    public record Cluster(String node, String state, List<Node> nodes) {
    }

    public record Node(String id, String state, int sessions, int capacity, long lastHeardMs) {
    }

    /**
     * {@code /healthz/room}: whether this node takes new sessions now ({@code why} says why not:
     * draining, full, no engine), for a front door's health check to send creates elsewhere.
     */
    public record Room(boolean room, String why, int sessions, int capacity) {
    }

    /** Open sessions and sessions being created right now. */
    public record Use(int sessions, int creating) {
    }
}
