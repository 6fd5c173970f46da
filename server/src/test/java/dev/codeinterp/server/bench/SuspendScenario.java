package dev.codeinterp.server.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Suspend and resume on gVisor (issue 24): what a suspended session costs on disk, fresh and holding
 * ~50 MB of Python objects; how long bringing one back takes (the server's own {@code resumed}
 * figure and the resuming cell's round trip); and SUSPEND_SESSIONS sessions suspended at once, then
 * all used again at once: how many cells failed or lost their variables. With SUSPEND_HELD, that
 * many sessions made and suspended a wave at a time, then held: their disk, the server's memory,
 * the containers left, and a sample of them used again.
 */
final class SuspendScenario {
    /** ~50 MB of Python objects: a million short strings in a list. */
    private static final String HEAVY = "big = [str(i) for i in range(1_000_000)]";
    private final BenchConfig config;
    private final ApiClient api;
    private final int sessions;
    private final int rounds;
    private final int held;

    SuspendScenario(BenchConfig config, ApiClient api, Map<String, String> env) {
        this.config = config;
        this.api = api;
        this.sessions = Integer.parseInt(env.getOrDefault("SUSPEND_SESSIONS", "200"));
        this.rounds = Integer.parseInt(env.getOrDefault("RESUME_ROUNDS", "10"));
        this.held = Integer.parseInt(env.getOrDefault("SUSPEND_HELD", "0"));
    }

    void run() throws Exception {
        System.out.printf("== suspend %s: one session fresh and one holding ~50 MB, %d resumes each; then %d sessions at once%n",
                config.label(), rounds, sessions);
        one("fresh (x = 1)", "x = 1", "x");
        one("holding ~50 MB", "x = 1\n" + HEAVY, "len(big)");
        many();
        if (held > 0) {
            held();
        }
    }

    /**
     * {@link #held} sessions suspended and kept, made a wave (SUSPEND_WAVE, 25) at a time so no more
     * than a wave runs at once: a runsc sandbox runs ~70 host threads (20 of them: 1,400), and the
     * host's pid_max (32768) counts threads.
     */
    private void held() throws Exception {
        int wave = Integer.parseInt(System.getenv().getOrDefault("SUSPEND_WAVE", "25"));
        List<ApiClient.SessionRef> all = new ArrayList<>();
        AtomicInteger failed = new AtomicInteger();
        long t0 = System.nanoTime();
        Path folder = config.dataDir().resolve("suspended");
        for (int start = 0; start < held; start += wave) {
            int base = start;
            all.addAll(inParallel(16, Math.min(wave, held - start), n -> {
                ApiClient.SessionRef s = api.create(Instant.now().plus(config.createDeadline()));
                require(api.execute(s, "x = " + (base + n) + "\nsquares = [k * k for k in range(1000)]"), "setting state");
                if (api.suspend(s).status() != 200) {
                    failed.incrementAndGet();
                }
                return s;
            }));
            if (all.size() % 250 < wave) { // a run cut short by its deadline still tells how far it got
                System.out.printf("    %d suspended after %.0f s: %.2f GiB on disk, server RSS %s and %s threads, host threads %s, "
                                + "load average %s%n", all.size(), (System.nanoTime() - t0) / 1e9,
                        dev.codeinterp.server.files.Trees.size(folder) / 1073741824.0, serverRss(), serverThreads(), hostThreads(),
                        loadAverage());
            }
        }
        long bytes = dev.codeinterp.server.files.Trees.size(folder);
        long folders;
        try (var list = Files.list(folder)) {
            folders = list.count();
        }
        System.out.printf("  %d sessions made and suspended, %d at a time, in %.0f s (suspend failed %d): %d held on disk in %.2f GiB "
                        + "(%.1f MiB each); server RSS %s; load average %s%n", all.size(), wave, (System.nanoTime() - t0) / 1e9,
                failed.get(), folders, bytes / 1073741824.0, bytes / 1048576.0 / Math.max(1, folders), serverRss(), loadAverage());
        int sample = Math.min(50, all.size());
        AtomicInteger lost = new AtomicInteger();
        Samples back = new Samples();
        java.util.Random random = new java.util.Random(1);
        List<Integer> picks = random.ints(0, all.size()).distinct().limit(sample).boxed().toList();
        inParallel(8, sample, n -> {
            int which = picks.get(n);
            ApiClient.Reply r = api.execute(all.get(which), "x + len(squares) - 1000");
            back.add(r.millis());
            if (r.status() != 200 || r.json().has("restarted")
                    || !String.valueOf(which).equals(r.json().objectList("results").get(0).string("text/plain"))) {
                lost.incrementAndGet();
            }
            return null;
        });
        System.out.printf("    %d of them, picked at random, used again (8 at a time): %s; variables lost or failed %d%n", sample,
                back.summary("ms", 50, 95), lost.get());
    }

    /** Threads of the server under test (each live session holds a few; a suspended one none). */
    private String serverThreads() {
        try (var tasks = Files.list(Path.of("/proc", String.valueOf(config.serverPid()), "task"))) {
            return String.valueOf(tasks.count());
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Threads on the host in all (what pid_max bounds): /proc/loadavg's "running/total". */
    private static String hostThreads() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[3].substring(fields[3].indexOf('/') + 1);
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /** The resident memory of the server under test. */
    private String serverRss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(config.serverPid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return line.substring(6).strip();
                }
            }
        } catch (IOException e) {
            // the server is not a local process
        }
        return "unknown";
    }

    /** One session suspended and used again {@code rounds} times: disk, and the time to come back. */
    private void one(String what, String state, String check) throws Exception {
        ApiClient.SessionRef s = api.create(Instant.now().plus(config.createDeadline()));
        require(api.execute(s, state), "setting state");
        Samples serverMs = new Samples();
        Samples cellMs = new Samples();
        Samples suspendMs = new Samples();
        long bytes = 0;
        String expected = null;
        for (int i = 0; i < rounds; i++) {
            ApiClient.Reply suspended = api.suspend(s);
            require(suspended, "suspend");
            suspendMs.add(suspended.millis());
            bytes = Math.max(bytes, diskOf(s));
            ApiClient.Reply back = api.execute(s, check);
            require(back, "the resuming cell");
            String value = back.json().objectList("results").get(0).string("text/plain");
            if (back.json().has("restarted") || expected != null && !expected.equals(value)) {
                throw new IllegalStateException("the variables did not come back: " + ApiClient.abbreviate(back.body()));
            }
            expected = value;
            cellMs.add(back.millis());
        }
        String events = api.get("/api/v1/sessions/" + s.id() + "/events", s.token(), java.time.Duration.ofSeconds(30)).body();
        for (var e : dev.codeinterp.model.json.JsonObject.parse(events).objectList("events")) {
            if ("resumed".equals(e.optString("type", ""))) {
                serverMs.add(e.integer("duration_ms"));
            }
        }
        System.out.printf("  %s: on disk while suspended %.1f MiB (checkpoint + files); suspend %s%n", what, bytes / 1048576.0,
                suspendMs.summary("ms", 50, 95));
        System.out.printf("    resume, as the server measured it (the resumed event, n=%d): %s%n", serverMs.count(), serverMs.summary("ms", 50, 95));
        System.out.printf("    the cell that resumes it, round trip: %s%n", cellMs.summary("ms", 50, 95));
        api.delete(s);
    }

    /** Every session suspended at once, then every one used at once. */
    private void many() throws Exception {
        List<ApiClient.SessionRef> refs = inParallel(16, sessions, n -> {
            ApiClient.SessionRef s = api.create(Instant.now().plus(config.createDeadline()));
            require(api.execute(s, "x = " + n + "\nsquares = [k * k for k in range(1000)]"), "setting state");
            return s;
        });
        System.out.printf("  %d sessions hold x = their number; load average %s%n", refs.size(), loadAverage());
        Samples suspend = new Samples();
        AtomicInteger suspendFailed = new AtomicInteger();
        long t0 = System.nanoTime();
        inParallel(refs.size(), refs.size(), n -> {
            ApiClient.Reply r = api.suspend(refs.get(n));
            suspend.add(r.millis());
            if (r.status() != 200) {
                suspendFailed.incrementAndGet();
            }
            return null;
        });
        System.out.printf("  all suspended at once in %.1f s: each %s; failed %d%n", (System.nanoTime() - t0) / 1e9,
                suspend.summary("ms", 50, 95), suspendFailed.get());
        Samples resume = new Samples();
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();
        t0 = System.nanoTime();
        inParallel(refs.size(), refs.size(), n -> {
            ApiClient.Reply r = api.execute(refs.get(n), "x + len(squares) - 1000");
            resume.add(r.millis());
            if (r.status() != 200 || !"ok".equals(r.json().optString("status", ""))) {
                if (failed.incrementAndGet() <= 3) {
                    System.out.println("    failed: " + r.status() + " " + ApiClient.abbreviate(r.body()));
                }
            } else if (r.json().has("restarted")
                    || !String.valueOf(n).equals(r.json().objectList("results").get(0).string("text/plain"))) {
                lost.incrementAndGet();
            }
            return null;
        });
        System.out.printf("  all used again at once in %.1f s: each cell %s; failed cells %d, variables lost %d; load average %s%n",
                (System.nanoTime() - t0) / 1e9, resume.summary("ms", 50, 95), failed.get(), lost.get(), loadAverage());
    }

    private interface Step<T> {
        T run(int n) throws Exception;
    }

    private static <T> List<T> inParallel(int threads, int count, Step<T> step) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, count)));
        try {
            List<Future<T>> all = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int n = i;
                all.add(pool.submit((Callable<T>) () -> step.run(n)));
            }
            List<T> out = new ArrayList<>();
            for (Future<T> f : all) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdown();
        }
    }

    private long diskOf(ApiClient.SessionRef s) {
        return dev.codeinterp.server.files.Trees.size(config.dataDir().resolve("suspended").resolve(s.id()));
    }

    private static void require(ApiClient.Reply r, String what) {
        if (r.status() != 200) {
            throw new IllegalStateException(what + " answered " + r.status() + ": " + ApiClient.abbreviate(r.body()));
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).substring(0, 14).strip();
        } catch (IOException e) {
            return "?";
        }
    }
}
