package dev.codeinterp.server.session;

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
 * Closes sessions nobody used for longer than the idle TTL, on a timer. A session with a cell
 * waiting or running is never idle, however long the cell takes.
 */
final class IdleReaper implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(IdleReaper.class);

    private final Duration ttl;
    private final Supplier<Collection<Session>> live;
    private final Consumer<Session> close;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "session-reaper");
        t.setDaemon(true);
        return t;
    });

    IdleReaper(Duration ttl, Supplier<Collection<Session>> live, Consumer<Session> close) {
        this.ttl = ttl;
        this.live = live;
        this.close = close;
    }

    /** Looks for idle sessions every {@code interval} (at least every 100 ms). */
    void start(Duration interval) {
        long every = Math.max(100, interval.toMillis());
        timer.scheduleWithFixedDelay(this::reapOnce, every, every, TimeUnit.MILLISECONDS);
    }

    void reapOnce() {
        long cutoff = System.currentTimeMillis() - ttl.toMillis();
        for (Session s : live.get()) {
            if (!s.busy() && s.lastActivity() < cutoff) {
                log.info("closing session {} after {} idle", s.id(), ttl);
                try {
                    close.accept(s);
                } catch (RuntimeException e) {
                    log.warn("could not close idle session {}", s.id(), e);
                }
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
