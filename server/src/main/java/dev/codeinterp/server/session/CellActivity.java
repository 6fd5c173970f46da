package dev.codeinterp.server.session;

import dev.codeinterp.model.SessionEvent;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whether cells are running on this server now or finished a moment ago. The warm pool refills past
 * its first sandbox only in the quiet between cells: a sandbox start costs ~0.3 CPU-s of dockerd,
 * containerd and runc, and on a 2-core host a refill running beside a wave of cells multiplied
 * their latency (measured: steady-state REST p50 4 ms -> 21 ms with 200 refills under way).
 */
public final class CellActivity {
    /**
     * A gap this long after the last cell finished counts as quiet. Not shorter: users who run a
     * cell every couple of seconds leave gaps between their waves, and a refill started in one
     * (~0.3 s of both cores here) ran into the next wave; with 250 ms, 200 sessions in step saw
     * about one refill per wave, and the machine's steady-state CPU per cell went 9.4 -> 4.1 ms
     * with 2 s (BIG_POOL=200 ./bench-load.sh busy-pool).
     */
    static final long QUIET_AFTER_MS = 2_000;
    /** No cell event for this long is quiet whatever the count says, so one lost count never stops the refill. */
    static final long SILENT_MS = 5_000;

    private final AtomicInteger running = new AtomicInteger();
    private volatile long lastEndNanos = System.nanoTime() - SILENT_MS * 1_000_000;
    private volatile long lastEventNanos = lastEndNanos;

    /** Every event a session emits passes here (queued and finished are counted). */
    public void record(SessionEvent e) {
        switch (e.event().type()) {
            case QUEUED -> {
                running.incrementAndGet();
                lastEventNanos = System.nanoTime();
            }
            case FINISHED -> {
                running.updateAndGet(n -> Math.max(0, n - 1));
                lastEndNanos = lastEventNanos = System.nanoTime();
            }
            default -> {
            }
        }
    }

    public boolean quiet() {
        long now = System.nanoTime();
        if (now - lastEventNanos > SILENT_MS * 1_000_000) {
            return true;
        }
        return running.get() == 0 && now - lastEndNanos > QUIET_AFTER_MS * 1_000_000;
    }
}
