package dev.codeinterp.server.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Issue 24 part 4, run once per TEMPLATE (none, pydata) against a server started with it: the first
 * cell that imports pandas in a new session, what a sandbox holds in memory once it answered, and
 * CREATES sessions created at once (each then answers {@code 1+1}): the time until all answered and
 * the CPU each create cost. CREATES is lowered when that many sandboxes of the measured size would
 * not fit in the machine's available memory (it says so).
 */
final class TemplateScenario {
    private static final String FIRST_CELL = "import pandas as pd\npd.DataFrame({'a': [1]})";
    private final BenchConfig config;
    private final ApiClient api;
    private final int firstCells;
    private final int creates;

    TemplateScenario(BenchConfig config, ApiClient api, Map<String, String> env) {
        this.config = config;
        this.api = api;
        this.firstCells = Integer.parseInt(env.getOrDefault("FIRST_CELL_SESSIONS", "10"));
        this.creates = Integer.parseInt(env.getOrDefault("CREATES", "200"));
    }

    void run() throws Exception {
        System.out.printf("== template %s: %d sessions' first cell (import pandas), one at a time; then up to %d creates at once%n",
                config.label(), firstCells, creates);
        Samples createMs = new Samples();
        Samples cellMs = new Samples();
        List<ApiClient.SessionRef> open = new ArrayList<>();
        for (int i = 0; i < firstCells; i++) {
            long t0 = System.nanoTime();
            ApiClient.SessionRef s = api.create(Instant.now().plus(config.createDeadline()));
            createMs.add((System.nanoTime() - t0) / 1e6);
            ApiClient.Reply r = api.execute(s, FIRST_CELL);
            if (r.status() != 200 || !"ok".equals(r.json().optString("status", ""))) {
                throw new IllegalStateException("the first cell failed: " + ApiClient.abbreviate(r.body()));
            }
            cellMs.add(r.millis());
            open.add(s);
            Thread.sleep(1500); // the pool refills between creates, as between users arriving
        }
        System.out.printf("  create: %s%n", createMs.summary("ms", 50, 95));
        System.out.printf("  first cell `import pandas as pd; pd.DataFrame({'a': [1]})`, round trip: %s%n", cellMs.summary("ms", 50, 95));
        SandboxMemory.Report memory = new SandboxMemory(config.dataDir()).measure();
        double perSandbox = memory.workingSet().percentile(50);
        System.out.printf("  memory per sandbox once it imported pandas (working set, n=%d): p50=%.1f MiB%n", memory.measured(), perSandbox);
        open.forEach(api::delete);

        double idleMiB = idleSandboxMiB();
        System.out.printf("  memory per sandbox that ran only 1+1 (working set): p50=%.1f MiB%n", idleMiB);
        int n = creates;
        long available = availableMiB();
        if (idleMiB > 0 && n * idleMiB > available * 0.7) {
            n = (int) (available * 0.7 / idleMiB);
            System.out.printf("  %d sandboxes of %.0f MiB would not fit in the %d MiB available: %d creates at once instead%n",
                    creates, idleMiB, available, n);
        }
        atOnce(n);
    }

    /** One new session's sandbox after {@code 1+1}: what every session costs before it imports anything. */
    private double idleSandboxMiB() throws Exception {
        List<ApiClient.SessionRef> few = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ApiClient.SessionRef s = api.create(Instant.now().plus(config.createDeadline()));
            api.execute(s, "1 + 1");
            few.add(s);
        }
        double mib = new SandboxMemory(config.dataDir()).measure().workingSet().percentile(50);
        few.forEach(api::delete);
        return mib;
    }

    private void atOnce(int n) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(64, n)));
        List<ApiClient.SessionRef> made = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger failed = new AtomicInteger();
        Samples each = new Samples();
        CpuAccount before = CpuAccount.snapshot();
        long t0 = System.nanoTime();
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                all.add(pool.submit(() -> {
                    long s0 = System.nanoTime();
                    try {
                        ApiClient.SessionRef s = api.create(Instant.now().plus(config.createDeadline()));
                        made.add(s);
                        if (api.execute(s, "1 + 1").status() != 200) {
                            failed.incrementAndGet();
                        }
                        each.add((System.nanoTime() - s0) / 1e6);
                    } catch (Exception e) {
                        failed.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        String cpu = CpuAccount.snapshot().perCell(before, config.serverPid(), made.size());
        System.out.printf("  %d creates at once, each then 1+1: all answered in %.1f s; each %s; failed %d%n", n, wall,
                each.summary("ms", 50, 95), failed.get());
        System.out.printf("    CPU per create (and its 1+1): %s%n", cpu);
        made.forEach(api::delete);
    }

    private static long availableMiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemAvailable:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (java.io.IOException e) {
            // not Linux: no bound
        }
        return Long.MAX_VALUE / 2;
    }
}
