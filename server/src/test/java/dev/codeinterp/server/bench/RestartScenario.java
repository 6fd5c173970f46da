package dev.codeinterp.server.bench;

import dev.codeinterp.model.json.JsonObject;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * N sessions each holding a variable, then the server stopped (RESTART_SIGNAL: TERM, as an
 * upgrade does, or KILL, a crash) and started again with the same command, environment and data
 * directory: how many sessions still have their variable, and how long until every one answers.
 * The scenario starts the second server itself and stops it at the end.
 */
final class RestartScenario {
    private static final int PARALLEL = 16;
    private final BenchConfig config;
    private final ApiClient api;
    private final int sessions;
    private final boolean kill;

    RestartScenario(BenchConfig config, ApiClient api, Map<String, String> env) {
        this.config = config;
        this.api = api;
        this.sessions = Integer.parseInt(env.getOrDefault("RESTART_SESSIONS", "100"));
        this.kill = "KILL".equalsIgnoreCase(env.getOrDefault("RESTART_SIGNAL", "TERM"));
    }

    void run() throws Exception {
        System.out.printf("== restart %s: %d sessions holding state, server stopped with SIG%s and started again%n",
                config.label(), sessions, kill ? "KILL" : "TERM");
        List<ApiClient.SessionRef> refs = open();
        ProcessHandle first = ProcessHandle.of(config.serverPid()).orElseThrow();
        List<String> command = readCommand(config.serverPid());
        Map<String, String> environment = readEnvironment(config.serverPid());
        Path cwd = Path.of("/proc/" + config.serverPid() + "/cwd").toRealPath();

        long stopping = System.nanoTime();
        if (kill) {
            first.destroyForcibly();
        } else {
            first.destroy();
        }
        first.onExit().get();
        System.out.printf("  stopped in %.2f s%n", (System.nanoTime() - stopping) / 1e9);

        ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile());
        pb.environment().clear();
        pb.environment().putAll(environment);
        Path log = config.dataDir().resolve("server-after-restart.log");
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        long started = System.nanoTime();
        Process second = pb.start();
        try {
            waitForHealth(Instant.now().plusSeconds(120));
            System.out.printf("  new process answers /healthz after %.2f s%n", (System.nanoTime() - started) / 1e9);
            check(refs, started);
            Files.readAllLines(log).stream().filter(l -> l.contains("adopted the sandboxes of"))
                    .forEach(l -> System.out.println("  server: " + l.substring(l.indexOf("adopted"))));
        } finally {
            second.destroy();
            second.onExit().get();
        }
    }

    private List<ApiClient.SessionRef> open() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        try {
            List<Future<ApiClient.SessionRef>> made = new ArrayList<>();
            Instant deadline = Instant.now().plus(config.createDeadline());
            for (int i = 0; i < sessions; i++) {
                int n = i;
                made.add(pool.submit(() -> {
                    ApiClient.SessionRef s = api.create(deadline);
                    ApiClient.Reply r = api.execute(s, "x = " + n + "\nfacts = {'n': x, 'squares': [k * k for k in range(1000)]}");
                    if (r.status() != 200) {
                        throw new IllegalStateException("setting state answered " + r.status());
                    }
                    return s;
                }));
            }
            List<ApiClient.SessionRef> refs = new ArrayList<>();
            for (Future<ApiClient.SessionRef> f : made) {
                refs.add(f.get());
            }
            System.out.printf("  %d sessions hold x = their number%n", refs.size());
            return refs;
        } finally {
            pool.shutdown();
        }
    }

    /** Every session asked for its variable at once (PARALLEL at a time), timed from the new process's start. */
    private void check(List<ApiClient.SessionRef> refs, long started) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        Samples answered = new Samples();
        AtomicInteger kept = new AtomicInteger();
        List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < refs.size(); i++) {
                int n = i;
                all.add(pool.submit(() -> {
                    ApiClient.Reply r = api.execute(refs.get(n), "facts['n'] + len(facts['squares']) - 1000");
                    answered.add((System.nanoTime() - started) / 1e6);
                    if (r.status() == 200 && !r.json().has("restarted") && r.json().objectList("results").size() == 1
                            && String.valueOf(n).equals(r.json().objectList("results").get(0).string("text/plain"))) {
                        kept.incrementAndGet();
                    } else if (problems.size() < 5) {
                        problems.add(r.status() + " " + ApiClient.abbreviate(r.body()));
                    }
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        System.out.printf("  kept their variables: %d / %d%n", kept.get(), refs.size());
        System.out.printf("  answered again, from the new process's start: %s%n", answered.summary("ms", 50, 95));
        problems.forEach(p -> System.out.println("    " + p));
    }

    private void waitForHealth(Instant deadline) throws InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        while (Instant.now().isBefore(deadline)) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(config.url() + "/healthz"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200 && JsonObject.parse(r.body()).object("docker").optBoolean("available", false)) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("the restarted server did not answer /healthz within 120 s");
    }

    private static List<String> readCommand(long pid) throws IOException {
        byte[] raw = Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline"));
        return Arrays.asList(new String(raw, StandardCharsets.UTF_8).split("\0"));
    }

    private static Map<String, String> readEnvironment(long pid) throws IOException {
        byte[] raw = Files.readAllBytes(Path.of("/proc/" + pid + "/environ"));
        Map<String, String> env = new java.util.HashMap<>();
        for (String entry : new String(raw, StandardCharsets.UTF_8).split("\0")) {
            int eq = entry.indexOf('=');
            if (eq > 0) {
                env.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        return env;
    }
}
