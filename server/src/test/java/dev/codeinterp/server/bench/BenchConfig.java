package dev.codeinterp.server.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What bench-load.sh tells the load client, from the environment: where the server is, its
 * process (for RSS and threads; a cluster's nodes' processes, comma-separated), its data directory (which names its sandboxes) and the scale.
 */
record BenchConfig(String url, String apiKey, List<Long> serverPids, Path dataDir, String label,
                   int sessions, Duration duration, Duration interval, Duration createDeadline,
                   int idle, int idleCreators, Duration idleDeadline, Duration settle, int roundTrips, int gapRounds, int background, boolean jitter, Duration healthEvery, int warmCells,
                   boolean ownConnections, boolean fixedRate) {

    static BenchConfig fromEnvironment(Map<String, String> env) {
        return new BenchConfig(
                required(env, "BENCH_URL"),
                env.get("BENCH_API_KEY"),
                Arrays.stream(required(env, "BENCH_SERVER_PID").split(",")).map(String::trim).map(Long::valueOf).toList(),
                Path.of(required(env, "BENCH_DATA_DIR")).toAbsolutePath().normalize(),
                env.getOrDefault("BENCH_LABEL", ""),
                integer(env, "SESSIONS", 200),
                Duration.ofSeconds(integer(env, "DURATION", 60)),
                Duration.ofMillis((long) (Double.parseDouble(env.getOrDefault("INTERVAL", "2")) * 1000)),
                Duration.ofSeconds(integer(env, "CREATE_DEADLINE", 180)),
                integer(env, "IDLE", 1000),
                integer(env, "IDLE_CREATORS", 64),
                Duration.ofSeconds(integer(env, "IDLE_DEADLINE", 900)),
                Duration.ofSeconds(integer(env, "SETTLE", 10)),
                integer(env, "ROUND_TRIPS", 200),
                integer(env, "GAP_ROUNDS", 20),
                integer(env, "BACKGROUND", 0),
                integer(env, "JITTER", 0) != 0,
                Duration.ofMillis((long) (Double.parseDouble(env.getOrDefault("HEALTHZ_EVERY", "1")) * 1000)),
                integer(env, "WARM_CELLS", 0),
                !"jdk".equals(env.getOrDefault("REST_CLIENT", "own")),
                "fixed".equals(env.getOrDefault("SCHEDULE", "after-answer")));
    }

    /** The server's process; with a cluster's nodes (BENCH_SERVER_PID=p1,p2,...) the first one's. */
    long serverPid() {
        return serverPids.get(0);
    }

    private static String required(Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(name + " is not set (bench-load.sh sets it)");
        }
        return v;
    }

    private static int integer(Map<String, String> env, String name, int fallback) {
        String v = env.get(name);
        return v == null || v.isBlank() ? fallback : Integer.parseInt(v.trim());
    }
}
