package dev.codeinterp.server.bench;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * M sessions opened (IDLE_CREATORS clients at a time, following Retry-After) and held idle; then
 * what they cost (server RSS, sandbox memory from the cgroups), what the M+1th create is
 * answered, and how long closing them all takes.
 */
final class IdleScenario {
    private final BenchConfig config;
    private final ApiClient api;
    private final ServerProbe probe;
    private final List<ApiClient.SessionRef> sessions = new ArrayList<>();
    private final Samples timeToSession = new Samples();
    private final List<String> problems = new ArrayList<>();

    IdleScenario(BenchConfig config, ApiClient api, ServerProbe probe) {
        this.config = config;
        this.api = api;
        this.probe = probe;
    }

    void run() throws InterruptedException, IOException {
        int m = config.idle();
        System.out.printf("== idle %s: %d sessions opened (%d clients at a time) and held idle%n",
                config.label(), m, Math.min(m, config.idleCreators()));
        CpuAccount before = CpuAccount.snapshot();
        long t0 = System.nanoTime();
        open(m, Instant.now().plus(config.idleDeadline()));
        System.out.printf("  opened: %d / %d in %.1f s; time to session %s%n", sessions.size(), m, (System.nanoTime() - t0) / 1e9,
                timeToSession.summary("ms", 50, 95));
        problems.forEach(p -> System.out.println("    " + p));
        System.out.println("  CPU while opening: " + CpuAccount.snapshot().since(before, config.serverPid()));
        System.out.println("  429/503 answers to creates: " + api.limitAnswerCount() + " " + api.limitAnswers());

        Thread.sleep(config.settle().toMillis());
        ServerProbe.ProcStatus server = probe.read();
        System.out.printf("  held idle %d s: server RSS %.0f MiB, threads %d%n", config.settle().toSeconds(), server.rssMiB(), server.threads());
        printSandboxMemory();
        nextCreate();

        long t1 = System.nanoTime();
        int closed = api.closeAll(sessions);
        System.out.printf("  closing %d sessions: %.1f s (%d answered 204)%n", sessions.size(), (System.nanoTime() - t1) / 1e9, closed);
        Thread.sleep(2000);
        ServerProbe.ProcStatus after = probe.read();
        System.out.printf("  2 s after closing: server RSS %.0f MiB, threads %d, sandboxes of this server %d%n",
                after.rssMiB(), after.threads(), new SandboxMemory(config.dataDir()).containerIds().size());
        probe.print("  ");
    }

    private void open(int m, Instant deadline) throws InterruptedException {
        AtomicInteger left = new AtomicInteger(m);
        int creators = Math.max(1, Math.min(m, config.idleCreators()));
        ExecutorService pool = Executors.newFixedThreadPool(creators, r -> {
            Thread t = new Thread(r, "creator");
            t.setDaemon(true);
            return t;
        });
        long start = System.nanoTime();
        for (int i = 0; i < creators; i++) {
            pool.execute(() -> {
                while (left.getAndDecrement() > 0) {
                    try {
                        ApiClient.SessionRef s = api.create(deadline);
                        timeToSession.add((System.nanoTime() - start) / 1e6);
                        synchronized (sessions) {
                            sessions.add(s);
                        }
                    } catch (InterruptedException e) {
                        return;
                    } catch (RuntimeException e) {
                        synchronized (problems) {
                            if (problems.size() < 5) {
                                problems.add("create: " + e.getMessage());
                            }
                        }
                    }
                }
            });
        }
        pool.shutdown();
        if (!pool.awaitTermination(config.idleDeadline().toSeconds() + 150, TimeUnit.SECONDS)) {
            System.out.println("  !! creates still running at the scenario's deadline; stopping them");
            pool.shutdownNow();
        }
    }

    private void printSandboxMemory() throws IOException, InterruptedException {
        SandboxMemory.Report r = new SandboxMemory(config.dataDir()).measure();
        System.out.printf("  sandboxes of this server: %d containers (sessions + warm pool), %d measured from %s%n",
                r.containers(), r.measured(), r.source());
        System.out.printf("    working set (usage - inactive file, what docker stats shows): per sandbox p50=%.1f max=%.1f MiB, total %.0f MiB%n",
                r.workingSet().percentile(50), r.workingSet().max(), r.workingSet().sum());
        if (r.usage().count() > 0) {
            System.out.printf("    usage incl. page cache: per sandbox p50=%.1f max=%.1f MiB, total %.0f MiB%n",
                    r.usage().percentile(50), r.usage().max(), r.usage().sum());
            System.out.printf("    anonymous memory (rss): per sandbox p50=%.1f max=%.1f MiB, total %.0f MiB%n",
                    r.anon().percentile(50), r.anon().max(), r.anon().sum());
        }
    }

    /** The M+1th create, answered as is: a clean 503 with Retry-After is expected when MAX_SESSIONS is M. */
    private void nextCreate() {
        ApiClient.Reply r = api.createOnce();
        System.out.printf("  session %d: HTTP %d in %.0f ms, Retry-After: %s, body: %s%n", sessions.size() + 1, r.status(), r.millis(),
                r.retryAfter(), ApiClient.abbreviate(r.body()));
        if (r.status() == 201) {
            synchronized (sessions) {
                sessions.add(new ApiClient.SessionRef(r.json().string("id"), r.json().string("token")));
            }
            System.out.println("    (no limit stopped it; it is closed with the others)");
        }
    }
}
