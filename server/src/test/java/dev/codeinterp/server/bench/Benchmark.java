package dev.codeinterp.server.bench;

import com.github.dockerjava.api.model.Statistics;
import com.github.dockerjava.core.InvocationBuilder;
import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.runner.RunnerMessage;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.files.Workspaces;
import dev.codeinterp.server.sandbox.DockerSandboxBackend;
import dev.codeinterp.server.sandbox.Sandbox;
import dev.codeinterp.server.sandbox.SandboxSpec;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The figures issue 2 asks for, printed, never asserted: `./bench.sh` runs this against the real
 * Docker engine. Each figure names how it was measured.
 */
public final class Benchmark {

    /**
     * With the argument {@code runtimes}, only the per-runtime figures. {@code BENCH_RUNTIMES} names the
     * engine's runtimes to compare (default {@code runc,runsc}); any runtime registered in daemon.json
     * will do, e.g. an older runsc registered beside the current one.
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 0 || !args[0].equals("runtimes")) {
            try (TestApp app = TestApp.start("runc", Map.of("POOL_SIZE", "2"))) {
                poolAcquire(app);
                webSocketRoundTrip(app);
                idleMemory(app);
            }
        }
        for (String runtime : System.getenv().getOrDefault("BENCH_RUNTIMES", "runc,runsc").split(",")) {
            coldStartAndRoundTrip(runtime.strip());
        }
        System.exit(0);
    }

    private static void poolAcquire(TestApp app) throws InterruptedException {
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            waitForFullPool(app);
            long t0 = System.nanoTime();
            TestApp.SessionRef s = app.createSession();
            ms.add((System.nanoTime() - t0) / 1e6);
            app.delete("/api/v1/sessions/" + s.id(), s.token());
        }
        print("session ready from the warm pool (POST /api/v1/sessions, n=20)", ms, 50, 95);
    }

    private static void waitForFullPool(TestApp app) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (app.main.pool().idleCount() < app.main.pool().target() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    private static void webSocketRoundTrip(TestApp app) throws Exception {
        TestApp.SessionRef s = app.createSession();
        WsClient ws = WsClient.connect(app.wsUri(s.id()), null);
        ws.send(new ClientMessage.Hello(s.token(), 0));
        ws.next(5000);
        List<Double> ms = new ArrayList<>();
        Map<String, List<Double>> byType = new java.util.TreeMap<>();
        for (int i = 0; i < 220; i++) {
            long t0 = System.nanoTime();
            ws.send(new ClientMessage.Execute("1+1", null));
            while (true) {
                ServerMessage m = ws.next(10_000);
                if (m instanceof ServerMessage.EventFrame f) {
                    if (i >= 20) {
                        byType.computeIfAbsent(f.event().event().type().wire(), k -> new ArrayList<>()).add((System.nanoTime() - t0) / 1e6);
                    }
                    if (f.event().event() instanceof Event.Finished) {
                        break;
                    }
                }
            }
            if (i >= 20) { // the first 20 warm the JIT
                ms.add((System.nanoTime() - t0) / 1e6);
            }
        }
        print("WebSocket round trip of 1+1, execute → finished, warm session (n=200)", ms, 50, 99);
        byType.forEach((type, values) -> print("  … until the '" + type + "' frame arrives", values, 50));
        ws.close();
        naiveDockerRun(app, percentile(ms, 50));
    }

    private static void naiveDockerRun(TestApp app, double warmP50) throws Exception {
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder("docker", "run", "--rm", "--network", "none", app.settings.image(),
                    "python3", "-c", "print(1+1)").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor();
            ms.add((System.nanoTime() - t0) / 1e6);
        }
        print("naive `docker run --rm image python3 -c 'print(1+1)'` per execution (n=5)", ms, 50);
        System.out.printf("  ratio naive / warm session p50: %.0fx%n", percentile(ms, 50) / warmP50);
    }

    private static void idleMemory(TestApp app) throws InterruptedException {
        DockerSandboxBackend backend = app.main.backend();
        TestApp.SessionRef s = app.createSession();
        app.execute(s, "x = 1", null);
        Thread.sleep(1000);
        List<Double> mib = new ArrayList<>();
        for (var c : backend.managedContainers()) {
            if (!"running".equals(c.getState())) {
                continue;
            }
            Statistics st = backend.client().statsCmd(c.getId()).withNoStream(true)
                    .exec(new InvocationBuilder.AsyncResultCallback<>()).awaitResult();
            if (st != null && st.getMemoryStats() != null && st.getMemoryStats().getUsage() != null) {
                mib.add(st.getMemoryStats().getUsage() / 1048576.0);
            }
        }
        print("idle memory per sandbox, cgroup usage incl. page cache (runc, n=" + mib.size() + ")", mib, 50);
        app.delete("/api/v1/sessions/" + s.id(), s.token());
    }

    private static void coldStartAndRoundTrip(String runtime) throws InterruptedException {
        String image = System.getenv().getOrDefault("CODEINTERP_IMAGE", "codeinterp-sandbox:latest");
        SandboxSpec spec = new SandboxSpec(image, runtime, 512L << 20, 1.0, 256, 1L << 30, 256L << 20, 1L << 30);
        Workspaces workspaces;
        try {
            workspaces = new Workspaces(java.nio.file.Files.createTempDirectory("codeinterp-bench"), 64L << 20);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        try (DockerSandboxBackend backend = DockerSandboxBackend.connect(spec)) {
            List<Double> ms = new ArrayList<>();
            Workspace workspace = workspaces.create();
            for (int i = 0; i < 10; i++) {
                long t0 = System.nanoTime();
                Sandbox s = backend.start(workspace);
                ms.add((System.nanoTime() - t0) / 1e6);
                s.close();
            }
            print("cold sandbox start to runner ready, " + runtime + " (n=10)", ms, 50, 95);
            try (Sandbox s = backend.start(workspace)) {
                print("runner round trip of 1+1, execute → finished, warm sandbox, " + runtime + " (n=200)", roundTrips(s, 220), 50, 95);
            }
            workspaces.destroy(workspace);
        }
    }

    /** Round trips of {@code 1+1} straight over the sandbox's stdin/stdout; the first 20 are left out as warm-up. */
    private static List<Double> roundTrips(Sandbox sandbox, int count) throws InterruptedException {
        BlockingQueue<Boolean> finished = new LinkedBlockingQueue<>();
        sandbox.onOutput(output -> output.messages().forEach(m -> {
            if (m instanceof RunnerMessage.CellEvent e && e.event() instanceof Event.Finished) {
                finished.add(true);
            }
        }), () -> finished.add(false));
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long t0 = System.nanoTime();
            sandbox.send(WireCodec.encodeRunnerExecute("bench-" + i, "1+1", Language.PYTHON, 1 << 20));
            Boolean ok = finished.poll(10, TimeUnit.SECONDS);
            if (!Boolean.TRUE.equals(ok)) {
                throw new IllegalStateException("the sandbox did not finish 1+1: " + sandbox.diagnose());
            }
            if (i >= 20) {
                ms.add((System.nanoTime() - t0) / 1e6);
            }
        }
        return ms;
    }

    private static void print(String what, List<Double> values, int... percentiles) {
        StringBuilder sb = new StringBuilder(what).append(":");
        for (int p : percentiles) {
            sb.append(String.format(" p%d=%.1f", p, percentile(values, p)));
        }
        System.out.println(sb.append(values.isEmpty() || what.contains("memory") ? " MiB" : " ms"));
    }

    private static double percentile(List<Double> values, int p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(index, sorted.size() - 1)));
    }
}
