package dev.codeinterp.server.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * What bench-load.sh tells the load client, from the environment: where the server is, its
 * process (for RSS and threads), its data directory (which names its sandboxes) and the scale.
 */
record BenchConfig(String url, String apiKey, long serverPid, Path dataDir, String label,
                   int sessions, Duration duration, Duration interval, Duration createDeadline,
                   int idle, int idleCreators, Duration idleDeadline, Duration settle, int roundTrips, int gapRounds, int background, boolean jitter, Duration healthEvery, int warmCells,
                   boolean ownConnections, boolean fixedRate) {

    static BenchConfig fromEnvironment(Map<String, String> env) {
        return new BenchConfig(
                required(env, "BENCH_URL"),
                env.get("BENCH_API_KEY"),
                Long.parseLong(required(env, "BENCH_SERVER_PID")),
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
