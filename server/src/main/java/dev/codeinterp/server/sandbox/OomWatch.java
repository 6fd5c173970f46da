package dev.codeinterp.server.sandbox;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ends gVisor sandboxes the kernel's OOM killer has struck. Under runsc's systrap platform a cell
 * that allocates without bound fills the container's memory cgroup; the kernel then kills one of the
 * sandbox's host processes (a stub or the gofer, not the sentry that holds the memory), and the
 * sandbox stays at its limit, neither dead nor able to go on, until the cell's timeout. Any OOM kill
 * in a gVisor sandbox leaves it broken, so one is enough: the watch reads each sandbox's
 * {@link OomCounter} every {@link #EVERY} and, once it moves, tells the sandbox, which kills its
 * container and diagnoses itself {@link SandboxExit.Cause#OOM_KILLED}.
 */
final class OomWatch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(OomWatch.class);
    /** Kills are seen within this: a memory bomb reaches a 1 GiB limit in ~2 s here. */
    static final Duration EVERY = Duration.ofMillis(250);

    private record Watched(OomCounter counter, long before, Runnable struck) {
    }

    private final Map<String, Watched> watched = new ConcurrentHashMap<>();
    private final AtomicBoolean warned = new AtomicBoolean();
    private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "oom-watch");
        t.setDaemon(true);
        return t;
    });

    OomWatch() {
        clock.scheduleWithFixedDelay(this::look, EVERY.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Watches the running container {@code containerId}; {@code struck} runs once, on the watch's
     * thread, when the kernel kills a process of it. A host that keeps no cgroup where Docker puts
     * them (an engine on another host) is said once in the log and nothing is watched.
     */
    void watch(String containerId, Runnable struck) {
        OomCounter counter = OomCounter.of(containerId);
        long before = counter == null ? -1 : counter.kills();
        if (before < 0) {
            if (counter != null) {
                counter.close();
            }
            if (warned.compareAndSet(false, true)) {
                log.warn("no memory cgroup of sandbox {} found under /sys/fs/cgroup: a cell past its memory limit "
                        + "may run to its timeout instead of ending as out of memory", containerId);
            }
            return;
        }
        Watched old = watched.put(containerId, new Watched(counter, before, struck));
        if (old != null) {
            old.counter().close();
        }
    }

    void unwatch(String containerId) {
        Watched gone = watched.remove(containerId);
        if (gone != null) {
            gone.counter().close();
        }
    }

    private void look() {
        for (Map.Entry<String, Watched> e : watched.entrySet()) {
            Watched w = e.getValue();
            long kills = w.counter().kills();
            if (kills < 0 || kills > w.before()) {
                // gone (the container ended) or struck: either way this container is watched no more
                if (watched.remove(e.getKey(), w)) {
                    w.counter().close();
                    if (kills > w.before()) {
                        try {
                            w.struck().run();
                        } catch (RuntimeException ex) {
                            log.warn("ending sandbox {} after an OOM kill failed", e.getKey(), ex);
                        }
                    }
                }
            }
        }
    }

    @Override
    public void close() {
        clock.shutdownNow();
        watched.values().forEach(w -> w.counter().close());
        watched.clear();
    }
}
