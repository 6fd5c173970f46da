package dev.codeinterp.server.session.residency;

import dev.codeinterp.server.session.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Hands sessions nobody used for longer than {@code ttl} (asked each time) to what becomes of idle ones (suspended
 * where variables can be kept, closed elsewhere), on a timer, and runs {@code housekeeping} on the
 * same beat. A session with a cell waiting or running is never idle, however long the cell takes.
 */
public final class IdleReaper implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(IdleReaper.class);

    private final Supplier<Duration> ttl;
    private final Supplier<Collection<Session>> live;
    private final Consumer<Session> close;
    private final Runnable housekeeping;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "session-reaper");
        t.setDaemon(true);
        return t;
    });

    public IdleReaper(Supplier<Duration> ttl, Supplier<Collection<Session>> live, Consumer<Session> idle, Runnable housekeeping) {
        this.ttl = ttl;
        this.live = live;
        this.close = idle;
        this.housekeeping = housekeeping;
    }

    /** Looks for idle sessions every {@code interval} (at least every 100 ms). */
    void start(Duration interval) {
        long every = Math.max(100, interval.toMillis());
        timer.scheduleWithFixedDelay(this::reapOnce, every, every, TimeUnit.MILLISECONDS);
    }

    public void reapOnce() {
        Duration ttl = this.ttl.get();
        long cutoff = System.currentTimeMillis() - ttl.toMillis();
        for (Session s : live.get()) {
            if (!s.busy() && s.lastActivity() < cutoff) {
                log.info("session {} idle for {}", s.id(), ttl);
                try {
                    close.accept(s);
                } catch (RuntimeException e) {
                    log.warn("idle session {}: {}", s.id(), e.getMessage(), e);
                }
            }
        }
        try {
            housekeeping.run();
        } catch (RuntimeException e) {
            log.warn("idle housekeeping failed: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
