package dev.codeinterp.server.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The busy user's loop: {@code n = 0}, then {@code n += 1; n} every interval, each answer checked
 * against the count it must show. One instance is shared by many client threads; it keeps the
 * latencies, the counts and the first few reasons a cell failed.
 */
final class StatefulCells {
    private static final int KEPT_PROBLEMS = 5;

    private final ApiClient api;
    private final Duration interval;
    private final boolean jitter;
    private final boolean ownConnections;
    private final boolean fixedRate;
    private final Samples executeMs = new Samples();
    private final Samples firstMs = new Samples();
    private final Samples lateMs = new Samples();
    private volatile long lateFrom = Long.MAX_VALUE;
    private final Samples inFlight = new Samples();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger cells = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final List<String> problems = new ArrayList<>();
    private volatile boolean stopped;

    /**
     * With {@code jitter}, each user starts its loop at a random point of the first interval; without,
     * users that got their sessions together send their first cells together (clients that start at
     * the same moment, as the issue has it). Then each user waits the interval after each answer, as
     * a script's {@code sleep(2)} or a load tool's think time does (k6, Locust); with
     * {@code fixedRate} it keeps a fixed schedule instead, so users whose sessions came in the same
     * millisecond send every cell in the same millisecond for the whole run. With
     * {@code ownConnections} each user sends over a connection of its own ({@link ApiClient#userConnection}).
     */
    StatefulCells(ApiClient api, Duration interval, boolean jitter, boolean ownConnections, boolean fixedRate) {
        this.api = api;
        this.interval = interval;
        this.jitter = jitter;
        this.ownConnections = ownConnections;
        this.fixedRate = fixedRate;
    }

    /** Runs the loop on {@code s} until {@code endNanos} (System.nanoTime) or {@link #stop()}. */
    void run(ApiClient.SessionRef s, long endNanos) {
        try (ApiClient.UserConnection user = api.userConnection(ownConnections)) {
            loop(user, s, endNanos);
        }
    }

    private void loop(ApiClient.UserConnection user, ApiClient.SessionRef s, long endNanos) {
        long expected = 0;
        long next = System.nanoTime() + (jitter ? (long) (Math.random() * interval.toNanos()) : 0);
        while (next < endNanos && !stopped) {
            try {
                Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                return;
            }
            long sent = System.nanoTime();
            inFlight.add(running.incrementAndGet());
            ApiClient.Reply r = user.execute(s, expected == 0 ? "n = 0" : "n += 1; n");
            running.decrementAndGet();
            cells.incrementAndGet();
            (expected == 0 ? firstMs : executeMs).add(r.millis());
            if (expected > 0 && sent >= lateFrom) {
                lateMs.add(r.millis());
            }
            String problem = check(r, expected);
            if (problem != null) {
                failed.incrementAndGet();
                keep("session " + s.id().substring(0, 6) + " cell " + expected + ": " + problem);
            }
            expected++;
            next = fixedRate ? Math.max(next + interval.toNanos(), System.nanoTime()) : System.nanoTime() + interval.toNanos();
        }
    }

    void stop() {
        stopped = true;
    }

    /** Keeps a reason among the first few shown (a create that gave up, say). */
    void keep(String reason) {
        synchronized (problems) {
            if (problems.size() < KEPT_PROBLEMS) {
                problems.add(reason);
            }
        }
    }

    /** Every cell but each session's first. */
    Samples executeMs() {
        return executeMs;
    }

    /** Cells sent from {@code nanos} (System.nanoTime) on are also kept apart: the steady state, after the start-up. */
    void keepLateFrom(long nanos) {
        lateFrom = nanos;
    }

    Samples lateMs() {
        return lateMs;
    }

    /** Each session's first cell, in an interpreter that has run nothing yet. */
    Samples firstMs() {
        return firstMs;
    }

    /** How many cells of this loop were in flight as each was sent, itself included: how bursty the load was. */
    Samples inFlight() {
        return inFlight;
    }

    int cells() {
        return cells.get();
    }

    int failed() {
        return failed.get();
    }

    List<String> problems() {
        synchronized (problems) {
            return List.copyOf(problems);
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
}
