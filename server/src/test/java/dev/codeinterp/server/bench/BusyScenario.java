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
import java.util.concurrent.atomic.AtomicReference;

/**
 * N clients each create a session at the same moment, then run the {@link StatefulCells} loop
 * (a cell every INTERVAL for DURATION). A wrong count, a non-ok status or a transport failure is
 * a failed cell; a create that never got a session is counted apart.
 */
final class BusyScenario {
    private static final int[] WITHIN_SECONDS = {1, 2, 5, 10, 15, 30, 60};

    private final BenchConfig config;
    private final ApiClient api;
    private final ServerProbe probe;
    private final StatefulCells cells;
    private final Samples timeToSession = new Samples();
    private final AtomicInteger failedCreates = new AtomicInteger();
    private final List<ApiClient.SessionRef> sessions = new ArrayList<>();
    private volatile double steadyMachineMsPerCell = Double.NaN;

    BusyScenario(BenchConfig config, ApiClient api, ServerProbe probe) {
        this.config = config;
        this.api = api;
        this.probe = probe;
        this.cells = new StatefulCells(api, config.interval(), config.jitter(), config.ownConnections(), config.fixedRate());
    }

    /** Runs to the end; bounded by the create deadline plus DURATION plus one execute timeout. */
    void run() throws InterruptedException {
        int n = config.sessions();
        System.out.printf("== busy %s: %d clients create a session at once, then each runs a cell every %.1f s for %d s (%s)%s%n",
                config.label(), n, config.interval().toMillis() / 1000.0, config.duration().toSeconds(),
                config.fixedRate() ? "on a fixed schedule, SCHEDULE=fixed" : "waiting that long after each answer",
                config.jitter() ? ", each loop started at a random point of its first interval" : "");
        warmUp();
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
        long lateFrom = System.nanoTime() + config.duration().toNanos() / 2;
        cells.keepLateFrom(lateFrom);
        String createCpu = CpuAccount.snapshot().since(before, config.serverPids());
        AtomicReference<CpuAccount> steadyStart = takenAt(lateFrom, CpuAccount::snapshot);
        AtomicReference<StoreCommits> commitsStart = takenAt(lateFrom, () -> StoreCommits.scrape(config.url(), config.apiKey()));
        clients.shutdown();
        Duration bound = config.createDeadline().plus(config.duration()).plusSeconds(120);
        if (!clients.awaitTermination(bound.toSeconds(), TimeUnit.SECONDS)) {
            System.out.println("  !! clients still running at the scenario's deadline; stopping them");
            cells.stop();
            clients.shutdownNow();
        }
        CpuAccount steadyEnd = CpuAccount.snapshot();
        CpuAccount steadyBegun = steadyStart.get();
        String steadyCpu = steadyBegun == null ? "not measured (the run ended first)"
                : steadyEnd.perCell(steadyBegun, config.serverPids(), cells.lateMs().count());
        if (steadyBegun != null) {
            steadyMachineMsPerCell = steadyEnd.machineMsPerCell(steadyBegun, cells.lateMs().count());
        }
        StoreCommits commitsEnd = StoreCommits.scrape(config.url(), config.apiKey());
        StoreCommits commitsBegun = commitsStart.get();
        String steadyCommits = commitsBegun == null || commitsEnd == null ? "not measured (no /metrics)"
                : commitsEnd.since(commitsBegun, cells.lateMs().count());
        print(n, createCpu, steadyCpu, steadyCommits);
        closeAll();
    }

    /** From the gate's opening until each client had its session (create latency, retries included). */
    Samples timeToSession() {
        return timeToSession;
    }

    /** The sessions obtained (closed by the end of {@link #run()}; their ids still name their nodes). */
    List<ApiClient.SessionRef> sessions() {
        synchronized (sessions) {
            return List.copyOf(sessions);
        }
    }

    StatefulCells cells() {
        return cells;
    }

    int failedCreates() {
        return failedCreates.get();
    }

    /** The whole machine's CPU per cell over the steady state, in ms; NaN when not measured. */
    double steadyMachineMsPerCell() {
        return steadyMachineMsPerCell;
    }

    /** What {@code take} gives at {@code nanos} (System.nanoTime), taken by a thread of its own. */
    private static <T> AtomicReference<T> takenAt(long nanos, java.util.function.Supplier<T> take) {
        AtomicReference<T> taken = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(Math.max(0, (nanos - System.nanoTime()) / 1_000_000));
                taken.set(take.get());
            } catch (InterruptedException e) {
                // the scenario ended first: nothing measured
            }
        }, "steady-state-snapshot");
        t.setDaemon(true);
        t.start();
        return taken;
    }

    /**
     * WARM_CELLS cells back to back on one session first, so the server's JIT has compiled the request
     * path as a server that has been up a while has; the session is closed before the clients start.
     */
    private void warmUp() throws InterruptedException {
        if (config.warmCells() == 0) {
            return;
        }
        long t0 = System.nanoTime();
        ApiClient.SessionRef s = api.create(Instant.now().plus(config.createDeadline()));
        for (int i = 0; i < config.warmCells(); i++) {
            api.execute(s, "1+1");
        }
        api.delete(s);
        System.out.printf("  (server warmed up first: %d cells on one session, %.1f s)%n", config.warmCells(), (System.nanoTime() - t0) / 1e9);
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
            cells.keep("create: " + e.getMessage());
            return;
        } finally {
            created.countDown();
        }
        // DURATION from this client's own session, but never past the scenario's end
        long now = System.nanoTime();
        long hardEnd = now + Duration.between(Instant.now(), createDeadline.plus(config.duration())).toNanos();
        cells.run(s, Math.min(now + config.duration().toNanos(), hardEnd));
    }

    private void print(int n, String createCpu, String steadyCpu, String steadyCommits) {
        System.out.printf("  sessions obtained: %d / %d%n", timeToSession.count(), n);
        System.out.println("  time to session: " + timeToSession.summary("ms", 50, 95));
        StringBuilder within = new StringBuilder("  sessions obtained within:");
        List<Double> sorted = timeToSession.sorted();
        for (int s : WITHIN_SECONDS) {
            within.append(String.format(" %d s: %d,", s, sorted.stream().filter(v -> v <= s * 1000.0).count()));
        }
        System.out.println(within.substring(0, within.length() - 1));
        System.out.println("  CPU while sessions were created: " + createCpu);
        System.out.println("  429/503 answers to creates: " + api.limitAnswerCount() + " " + api.limitAnswers());
        System.out.printf("  cells run: %d, failed cells: %d, creates given up: %d%n", cells.cells(), cells.failed(), failedCreates.get());
        cells.problems().forEach(p -> System.out.println("    " + p));
        System.out.println("  execute latency (REST, " + (config.ownConnections() ? "each user's own connection" : "one shared JDK HttpClient")
                + ", client wall time): " + cells.executeMs().summary("ms", 50, 95, 99));
        System.out.println("    each session's first cell apart (n = 0, fresh interpreter): " + cells.firstMs().summary("ms", 50, 95));
        System.out.printf("    cells sent from %d s after the last session was obtained (steady state): %s%n",
                config.duration().toSeconds() / 2, cells.lateMs().summary("ms", 50, 95, 99));
        System.out.println("    CPU per cell over that steady state, by process: " + steadyCpu);
        System.out.println("    store commits over that steady state" + (config.serverPids().size() > 1 ? " (of the node that answered /metrics)" : "")
                + ": " + steadyCommits);
        System.out.println("  cells in flight as each was sent, itself included (" + (config.jitter() ? "loops started at random points"
                : "loops started together, JITTER=0") + "): " + cells.inFlight().summary("", 50, 95));
        probe.print("  ");
    }

    private void closeAll() throws InterruptedException {
        long t0 = System.nanoTime();
        int closed = api.closeAll(sessions);
        System.out.printf("  closing %d sessions: %d answered 204, %.1f s%n", sessions.size(), closed, (System.nanoTime() - t0) / 1e9);
    }
}
