package dev.codeinterp.server.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * N clients each create a session at the same moment, then run a small stateful cell every
 * INTERVAL for DURATION: {@code n = 0}, then {@code n += 1; n}, checking the count each time.
 * A wrong value, a non-ok status or a transport failure is a failed cell.
 */
final class BusyScenario {
    private static final int KEPT_FAILURES = 5;
    private static final int[] WITHIN_SECONDS = {1, 2, 5, 10, 15, 30, 60};

    private final BenchConfig config;
    private final ApiClient api;
    private final ServerProbe probe;
    private final Samples timeToSession = new Samples();
    private final Samples executeMs = new Samples();
    private final AtomicInteger cells = new AtomicInteger();
    private final AtomicInteger failedCells = new AtomicInteger();
    private final AtomicInteger failedCreates = new AtomicInteger();
    private final List<String> failures = new ArrayList<>();
    private final List<ApiClient.SessionRef> sessions = new ArrayList<>();

    BusyScenario(BenchConfig config, ApiClient api, ServerProbe probe) {
        this.config = config;
        this.api = api;
        this.probe = probe;
    }

    /** Runs to the end; bounded by the create deadline plus DURATION plus one execute timeout. */
    void run() throws InterruptedException {
        int n = config.sessions();
        System.out.printf("== busy %s: %d clients create a session at once, then each runs a cell every %.1f s for %d s%n",
                config.label(), n, config.interval().toMillis() / 1000.0, config.duration().toSeconds());
        Instant createDeadline = Instant.now().plus(config.createDeadline());
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch created = new CountDownLatch(n);
        ExecutorService clients = Executors.newFixedThreadPool(n, r -> {
            Thread t = new Thread(r, "client");
            t.setDaemon(true);
            return t;
        });
        long[] release = new long[1];
        for (int i = 0; i < n; i++) {
            clients.execute(() -> client(gate, release, created, createDeadline));
        }
        CpuAccount before = CpuAccount.snapshot();
        release[0] = System.nanoTime();
        gate.countDown();
        created.await();
        String createCpu = CpuAccount.snapshot().since(before, config.serverPid());
        clients.shutdown();
        Duration bound = config.createDeadline().plus(config.duration()).plusSeconds(120);
        if (!clients.awaitTermination(bound.toSeconds(), TimeUnit.SECONDS)) {
            System.out.println("  !! clients still running at the scenario's deadline; stopping them");
            clients.shutdownNow();
        }
        print(n, createCpu);
        closeAll();
    }

    private void client(CountDownLatch gate, long[] release, CountDownLatch created, Instant createDeadline) {
        ApiClient.SessionRef s;
        try {
            gate.await();
            s = api.create(createDeadline);
            timeToSession.add((System.nanoTime() - release[0]) / 1e6);
            synchronized (sessions) {
                sessions.add(s);
            }
        } catch (InterruptedException e) {
            return;
        } catch (RuntimeException e) {
            failedCreates.incrementAndGet();
            keep("create: " + e.getMessage());
            return;
        } finally {
            created.countDown();
        }
        runCells(s, createDeadline.plus(config.duration()));
    }

    private void runCells(ApiClient.SessionRef s, Instant hardEnd) {
        long start = System.nanoTime();
        long end = Math.min(start + config.duration().toNanos(), start + Duration.between(Instant.now(), hardEnd).toNanos());
        long interval = config.interval().toNanos();
        long expected = 0;
        long next = start;
        while (next < end) {
            String code = expected == 0 ? "n = 0" : "n += 1; n";
            ApiClient.Reply r = api.execute(s, code);
            cells.incrementAndGet();
            executeMs.add(r.millis());
            String problem = check(r, expected);
            if (problem != null) {
                failedCells.incrementAndGet();
                keep("session " + s.id().substring(0, 6) + " cell " + expected + ": " + problem);
            }
            expected++;
            next = Math.max(next + interval, System.nanoTime());
            try {
                Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Null when the cell did what it should: status ok, and the count it shows is the expected one. */
    private static String check(ApiClient.Reply r, long expected) {
        if (r.status() != 200) {
            return "HTTP " + r.status() + " " + ApiClient.abbreviate(r.body());
        }
        try {
            var o = r.json();
            if (!"ok".equals(o.string("status"))) {
                return "status " + o.string("status") + " " + ApiClient.abbreviate(r.body());
            }
            var results = o.objectList("results");
            String shown = results.isEmpty() ? null : results.get(0).optString("text/plain", null);
            String want = expected == 0 ? null : Long.toString(expected);
            if (want == null ? shown != null : !want.equals(shown)) {
                return "expected " + want + ", got " + shown;
            }
            return null;
        } catch (RuntimeException e) {
            return "unreadable answer: " + ApiClient.abbreviate(r.body());
        }
    }

    private void keep(String reason) {
        synchronized (failures) {
            if (failures.size() < KEPT_FAILURES) {
                failures.add(reason);
            }
        }
    }

    private void print(int n, String createCpu) {
        int obtained = timeToSession.count();
        System.out.printf("  sessions obtained: %d / %d%n", obtained, n);
        System.out.println("  time to session: " + timeToSession.summary("ms", 50, 95));
        StringBuilder within = new StringBuilder("  sessions obtained within:");
        List<Double> sorted = timeToSession.sorted();
        for (int s : WITHIN_SECONDS) {
            within.append(String.format(" %d s: %d,", s, sorted.stream().filter(v -> v <= s * 1000.0).count()));
        }
        System.out.println(within.substring(0, within.length() - 1));
        System.out.println("  CPU while sessions were created: " + createCpu);
        System.out.println("  429/503 answers to creates: " + api.limitAnswerCount() + " " + api.limitAnswers());
        System.out.printf("  cells run: %d, failed cells: %d, creates given up: %d%n", cells.get(), failedCells.get(), failedCreates.get());
        synchronized (failures) {
            failures.forEach(f -> System.out.println("    " + f));
        }
        System.out.println("  execute latency (REST, client wall time): " + executeMs.summary("ms", 50, 95, 99));
        probe.print("  ");
    }

    private void closeAll() throws InterruptedException {
        long t0 = System.nanoTime();
        int closed = api.closeAll(sessions);
        System.out.printf("  closing %d sessions: %d answered 204, %.1f s%n", sessions.size(), closed, (System.nanoTime() - t0) / 1e9);
    }
}
