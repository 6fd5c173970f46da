package dev.codeinterp.server.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * K busy users in the background (each the {@link StatefulCells} loop on its own session) while
 * something else is measured, so a figure can be read at rest and under the busy scenario's load.
 * Zero users is no load at all.
 */
final class BackgroundLoad implements AutoCloseable {
    private final ApiClient api;
    private final StatefulCells cells;
    private final List<ApiClient.SessionRef> sessions = new ArrayList<>();
    private final ExecutorService users;
    private final CountDownLatch created;

    private BackgroundLoad(ApiClient api, Duration interval, boolean jitter, boolean ownConnections, boolean fixedRate, int users) {
        this.api = api;
        this.cells = new StatefulCells(api, interval, jitter, ownConnections, fixedRate);
        this.created = new CountDownLatch(users);
        this.users = Executors.newFixedThreadPool(Math.max(1, users), r -> {
            Thread t = new Thread(r, "background-user");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts {@code users} users and returns once each has its session (or the deadline passed). */
    static BackgroundLoad start(ApiClient api, Duration interval, boolean jitter, boolean ownConnections, boolean fixedRate, int users, Instant deadline)
            throws InterruptedException {
        BackgroundLoad load = new BackgroundLoad(api, interval, jitter, ownConnections, fixedRate, users);
        for (int i = 0; i < users; i++) {
            load.users.execute(() -> load.user(deadline));
        }
        load.created.await(Math.max(0, Duration.between(Instant.now(), deadline).toMillis()), TimeUnit.MILLISECONDS);
        // one interval more, so every user's loop is running when measuring starts
        Thread.sleep(users == 0 ? 0 : interval.toMillis());
        return load;
    }

    private void user(Instant deadline) {
        ApiClient.SessionRef s;
        try {
            s = api.create(deadline);
            synchronized (sessions) {
                sessions.add(s);
            }
        } catch (InterruptedException e) {
            return;
        } catch (RuntimeException e) {
            cells.keep("create: " + e.getMessage());
            return;
        } finally {
            created.countDown();
        }
        cells.run(s, Long.MAX_VALUE);
    }

    int sessions() {
        synchronized (sessions) {
            return sessions.size();
        }
    }

    /** e.g. "20 sessions, 310 cells, 0 failed, execute p50=… ms". */
    String summary() {
        StringBuilder sb = new StringBuilder(String.format("%d sessions, %d cells, %d failed, execute %s; in flight at once %s",
                sessions(), cells.cells(), cells.failed(), cells.executeMs().summary("ms", 50, 95), cells.inFlight().summary("", 50, 95)));
        cells.problems().forEach(p -> sb.append("\n    ").append(p));
        return sb.toString();
    }

    @Override
    public void close() throws InterruptedException {
        cells.stop();
        users.shutdown();
        if (!users.awaitTermination(120, TimeUnit.SECONDS)) {
            users.shutdownNow();
        }
        api.closeAll(sessions);
    }
}
