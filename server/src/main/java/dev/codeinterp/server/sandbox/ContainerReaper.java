package dev.codeinterp.server.sandbox;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static dev.codeinterp.server.sandbox.DockerSandboxBackend.LABEL_DEPLOYMENT;
import static dev.codeinterp.server.sandbox.DockerSandboxBackend.LABEL_INSTANCE;
import static dev.codeinterp.server.sandbox.DockerSandboxBackend.LABEL_MANAGED;

/**
 * Removes our containers, found by label, never trusting only the in-memory set: a closed
 * sandbox's container in the background; on a timer, containers of this process that no open
 * sandbox claims (removals that failed while the engine was away); at start, those a previous
 * process of this deployment left that no session adopted; at shutdown, every one of this process
 * but those detached for the next process to adopt (sessions' sandboxes, with their variables).
 */
final class ContainerReaper implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ContainerReaper.class);
    /** A container of ours that no open sandbox claims, older than this, is garbage (a removal that failed while the engine was away). */
    private static final Duration STRAY_AGE = Duration.ofSeconds(60);
    private static final Duration SWEEP_EVERY = Duration.ofSeconds(30);

    private final DockerClient docker;
    private final String deploymentId;
    private final String instanceId;
    /** Containers of sandboxes not yet closed: everything else of this instance is removed by the sweep. */
    private final Set<String> open = ConcurrentHashMap.newKeySet();
    /** Containers left running for a later process of this deployment: shutdown leaves them alone. */
    private final Set<String> kept = ConcurrentHashMap.newKeySet();
    /**
     * Removals wait on the engine (a runsc container takes 1-2 s to kill and clean up under load),
     * so several go at once: with 2, suspends at ~3 a second outran them, removed containers piled up
     * running (110 for 32 live sessions, 5 host threads each held), and a 2,000-held run hit pid_max.
     */
    private static final int REMOVERS = 8;
    private final ScheduledExecutorService cleanup = Executors.newScheduledThreadPool(REMOVERS, r -> {
        Thread t = new Thread(r, "sandbox-cleanup");
        t.setDaemon(true);
        return t;
    });

    ContainerReaper(DockerClient docker, String deploymentId, String instanceId) {
        this.docker = docker;
        this.deploymentId = deploymentId;
        this.instanceId = instanceId;
        long every = SWEEP_EVERY.toMillis();
        cleanup.scheduleWithFixedDelay(this::sweepStrays, every, every, TimeUnit.MILLISECONDS);
    }

    /** A container was created for a sandbox: the sweep leaves it alone until the sandbox closes. */
    void opened(String containerId) {
        open.add(containerId);
    }

    /** A sandbox closed: its container goes in the background (or, if the engine is away, by the sweep). */
    void closed(String containerId) {
        open.remove(containerId);
        cleanup.execute(() -> remove(containerId));
    }

    /** A sandbox was detached: its container outlives this process. */
    void kept(String containerId) {
        open.remove(containerId);
        kept.add(containerId);
    }

    /** Removes containers of this process that no open sandbox claims. */
    void sweepStrays() {
        try {
            long cutoff = System.currentTimeMillis() / 1000 - STRAY_AGE.toSeconds();
            int removed = 0;
            for (Container c : managedContainers()) {
                if (instanceId.equals(c.getLabels().get(LABEL_INSTANCE)) && !open.contains(c.getId()) && !kept.contains(c.getId())
                        && c.getCreated() != null && c.getCreated() < cutoff) {
                    remove(c.getId());
                    removed++;
                }
            }
            if (removed > 0) {
                log.info("removed {} sandbox container(s) no open sandbox claimed", removed);
            }
        } catch (RuntimeException e) {
            log.debug("sweep skipped: {}", e.getMessage());
        }
    }

    /**
     * Removes sandboxes of earlier processes of this deployment but {@code adopted} (taken over by
     * sessions of this one); another deployment's are not ours to touch.
     */
    int reapOrphans(Set<String> adopted) {
        int removed = 0;
        for (Container c : managedContainers()) {
            if (deploymentId.equals(c.getLabels().get(LABEL_DEPLOYMENT)) && !instanceId.equals(c.getLabels().get(LABEL_INSTANCE))
                    && !adopted.contains(c.getId())) {
                remove(c.getId());
                removed++;
            }
        }
        if (removed > 0) {
            log.info("removed {} sandbox(es) left by a previous server process", removed);
        }
        return removed;
    }

    /** Every container carrying our label, of any process, running or not. */
    List<Container> managedContainers() {
        return docker.listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of(LABEL_MANAGED, "true")).exec();
    }

    private void remove(String containerId) {
        try {
            docker.removeContainerCmd(containerId).withForce(true).withRemoveVolumes(true).exec();
        } catch (NotFoundException | ConflictException e) {
            // already gone, or already being removed by the other cleanup path
        } catch (RuntimeException e) {
            log.warn("could not remove sandbox {}: {}", containerId, e.getMessage());
        }
    }

    /** Removes this process's sandboxes but those detached; called at shutdown, after sessions closed or detached theirs. */
    @Override
    public void close() {
        try {
            for (Container c : managedContainers()) {
                if (instanceId.equals(c.getLabels().get(LABEL_INSTANCE)) && !kept.contains(c.getId())) {
                    remove(c.getId());
                }
            }
        } catch (RuntimeException e) {
            log.warn("could not list sandboxes at shutdown: {}", e.getMessage());
        } finally {
            cleanup.shutdown();
            try {
                cleanup.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
