package dev.codeinterp.server.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Watches the server while a scenario runs: its RSS and thread count from /proc every second,
 * and /healthz every second (each on its own thread, so a slow /healthz shows as slow, not as
 * a gap in the memory figures).
 */
final class ServerProbe implements AutoCloseable {
    private static final int KEPT_PROBLEMS = 5;

    private final ApiClient api;
    private final long pid;
    private final long startNanos = System.nanoTime();
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "server-probe");
        t.setDaemon(true);
        return t;
    });
    private final Samples rssMiB = new Samples();
    private final Samples threads = new Samples();
    private final Samples healthMs = new Samples();
    private final Samples sessionsInUse = new Samples();
    private final Samples creating = new Samples();
    private final AtomicInteger healthNotOk = new AtomicInteger();
    private final List<String> healthProblems = new ArrayList<>();
    private volatile ProcStatus first;
    private volatile ProcStatus last;

    ServerProbe(ApiClient api, long pid) {
        this.api = api;
        this.pid = pid;
    }

    record ProcStatus(double rssMiB, int threads) {
    }

    ServerProbe start() {
        first = read();
        timer.scheduleAtFixedRate(this::sampleProc, 1, 1, TimeUnit.SECONDS);
        timer.scheduleAtFixedRate(this::sampleHealth, 0, 1, TimeUnit.SECONDS);
        return this;
    }

    /** VmRSS and Threads of the server process now. */
    ProcStatus read() {
        double rss = Double.NaN;
        int n = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
                } else if (line.startsWith("Threads:")) {
                    n = Integer.parseInt(line.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // the server is gone: NaN says so in the report
        }
        return new ProcStatus(rss, n);
    }

    private void sampleProc() {
        ProcStatus s = read();
        last = s;
        rssMiB.add(s.rssMiB());
        threads.add(s.threads());
    }

    private void sampleHealth() {
        ApiClient.Reply r = api.get("/healthz", null, Duration.ofSeconds(10));
        healthMs.add(r.millis());
        String problem = null;
        if (r.status() != 200) {
            problem = r.status() + " " + ApiClient.abbreviate(r.body());
        } else {
            try {
                var health = r.json();
                String status = health.optString("status", "?");
                if (health.has("use")) {
                    sessionsInUse.add(health.object("use").optInteger("sessions", -1));
                    creating.add(health.object("use").optInteger("creating", -1));
                }
                if (!"ok".equals(status)) {
                    problem = status + " " + ApiClient.abbreviate(r.body());
                }
            } catch (RuntimeException e) {
                problem = "unreadable body: " + ApiClient.abbreviate(r.body());
            }
        }
        if (problem != null) {
            healthNotOk.incrementAndGet();
            synchronized (healthProblems) {
                if (healthProblems.size() < KEPT_PROBLEMS) {
                    healthProblems.add(String.format("+%.0f s: %s", (System.nanoTime() - startNanos) / 1e9, problem));
                }
            }
        }
    }

    void print(String indent) {
        ProcStatus end = last != null ? last : read();
        System.out.printf("%sserver RSS: start %.0f MiB, max %.0f MiB, end %.0f MiB; threads: start %d, max %.0f, end %d%n",
                indent, first.rssMiB(), rssMiB.max(), end.rssMiB(), first.threads(), threads.max(), end.threads());
        System.out.printf("%s/healthz each second: %d samples, %s; its latency %s%n", indent, healthMs.count(),
                healthNotOk.get() == 0 ? "all \"ok\"" : healthNotOk.get() + " NOT ok", healthMs.summary("ms", 50, 95));
        if (sessionsInUse.count() > 0) {
            System.out.printf("%s/healthz use: at most %.0f sessions open and %.0f creates in flight at once%n", indent,
                    sessionsInUse.max(), creating.max());
        }
        synchronized (healthProblems) {
            healthProblems.forEach(p -> System.out.println(indent + "  " + p));
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(15, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
