// Over 300 lines: the hardened create (every flag of the sandbox spec in one place, so a review sees them together), adopt, checkpoint and remove over one client.
package dev.codeinterp.server.sandbox;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Info;
import com.github.dockerjava.api.model.LogConfig;
import com.github.dockerjava.api.model.PropagationMode;
import com.github.dockerjava.api.model.SELContext;
import com.github.dockerjava.api.model.Ulimit;
import com.github.dockerjava.api.model.Version;
import com.github.dockerjava.api.model.Volume;
import dev.codeinterp.server.files.Trees;
import dev.codeinterp.server.files.Workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Sandboxes as Docker containers, hardened per {@link SandboxSpec}, labelled so they can be found
 * again; {@link ContainerReaper} removes them.
 */
public final class DockerSandboxBackend implements SandboxBackend {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(DockerSandboxBackend.class);
    public static final String LABEL_MANAGED = "dev.codeinterp.managed";
    public static final String LABEL_INSTANCE = "dev.codeinterp.instance";
    /** Which deployment (data directory) a sandbox belongs to: servers of other deployments on the same engine are left alone. */
    public static final String LABEL_DEPLOYMENT = "dev.codeinterp.deployment";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    /**
     * How long a restore waits for a start slot: a resume is a user's cell waiting on its variables,
     * so it queues behind other starts (200 sessions resumed at once took ~90 s here) rather than failing.
     */
    private static final Duration RESTORE_SLOT_WAIT = Duration.ofMinutes(5);

    /** Sandboxes started at once, across new sessions, the warm pool and restarts: starts are CPU-bound on the engine. */
    static final int CONCURRENT_STARTS = 8;
    private static final long INFO_CACHE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final DockerConnections connections;
    private final DockerClient docker;
    private final SandboxSpec spec;
    private final String deploymentId;
    /** Identifies this server process; containers with another value are a previous process's orphans. */
    private final String instanceId = UUID.randomUUID().toString();
    private final Semaphore starts = new Semaphore(CONCURRENT_STARTS, true);
    private final ContainerReaper reaper;
    private final RuntimeVersion runtimeVersion;
    private final EngineCheckpoints checkpoints;
    /** gVisor sandboxes only: under runc the kernel's OOM kill ends the container itself (see OomWatch). */
    private final OomWatch oomWatch = new OomWatch();
    private volatile Path engineRoot;
    private volatile EngineInfo lastInfo;
    private volatile long lastInfoAt;

    private DockerSandboxBackend(DockerConnections connections, SandboxSpec spec, String deploymentId) {
        this.connections = connections;
        this.docker = connections.control();
        this.spec = spec;
        this.deploymentId = deploymentId;
        this.reaper = new ContainerReaper(docker, deploymentId, instanceId);
        this.runtimeVersion = new RuntimeVersion(connections.onThisHost());
        this.checkpoints = new EngineCheckpoints(connections.controlHttp());
    }

    /** Connects to the engine named by DOCKER_HOST (default: the local socket). */
    public static DockerSandboxBackend connect(SandboxSpec spec) {
        return connect(spec, null, "standalone");
    }

    /** Connects to {@code dockerHost} (e.g. unix:///var/run/docker.sock), or DOCKER_HOST when null. */
    public static DockerSandboxBackend connect(SandboxSpec spec, String dockerHost, String deploymentId) {
        return new DockerSandboxBackend(DockerConnections.open(dockerHost), spec, deploymentId);
    }

    /**
     * The runtimes the engine at {@code dockerHost} (null: DOCKER_HOST or the local socket) has
     * registered, or null when no engine answers: asked before a backend exists, since its spec
     * names the runtime chosen from them.
     */
    public static List<String> registeredRuntimes(String dockerHost) {
        try (DockerConnections connections = DockerConnections.open(dockerHost)) {
            return runtimesOf(connections.control().infoCmd().exec()).keySet().stream().map(String::valueOf).toList();
        } catch (RuntimeException e) {
            log.warn("no Docker engine answers: {}", e.getMessage());
            return null;
        }
    }

    private static Map<?, ?> runtimesOf(Info info) {
        return info.getRawValues().get("Runtimes") instanceof Map<?, ?> m ? m : Map.of();
    }

    public DockerClient client() {
        return docker;
    }

    public SandboxSpec spec() {
        return spec;
    }

    @Override
    public Sandbox start(Workspace workspace) {
        acquireStartSlot(READY_TIMEOUT);
        try {
            return startGated(workspace);
        } finally {
            starts.release();
        }
    }

    private void acquireStartSlot(Duration wait) {
        try {
            if (!starts.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new SandboxException("the engine is busy starting other sandboxes; try again");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxException("interrupted while waiting to start a sandbox", e);
        }
    }

    private Sandbox startGated(Workspace workspace) {
        DockerSandbox sandbox = newSandbox(createContainer(workspace), spec.runtime(), workspace);
        try {
            sandbox.attach();
            docker.startContainerCmd(sandbox.id()).exec();
            watchMemory(sandbox);
            sandbox.ready().get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return sandbox;
        } catch (Exception e) {
            throw failed(sandbox, "the sandbox did not start", e);
        }
    }

    /** A hardened container on {@code workspace}, created (not started); the same for a fresh start and a restore. */
    private String createContainer(Workspace workspace) {
        try {
            return docker.createContainerCmd(spec.image())
                    .withLabels(Map.of(LABEL_MANAGED, "true", LABEL_DEPLOYMENT, deploymentId, LABEL_INSTANCE, instanceId))
                    .withCmd(SandboxSpec.COMMAND)
                    .withEnv(SandboxSpec.ENVIRONMENT)
                    .withUser(SandboxSpec.USER)
                    .withWorkingDir(SandboxSpec.WORKSPACE)
                    .withHostName("sandbox")
                    .withAttachStdin(true)
                    .withAttachStdout(true)
                    .withAttachStderr(true)
                    .withStdinOpen(true)
                    // stdin stays open when our attach ends: a restarting server leaves the runner running
                    .withStdInOnce(false)
                    .withTty(false)
                    .withNetworkDisabled(true)
                    .withHostConfig(hostConfig(workspace))
                    .exec()
                    .getId();
        } catch (NotFoundException e) {
            throw new SandboxException("the sandbox image " + spec.image() + " is not built; run the README's run command", e);
        } catch (RuntimeException e) {
            throw new SandboxException("could not create a sandbox: " + e.getMessage(), e);
        }
    }

    private DockerSandbox newSandbox(String containerId, String runtime, Workspace workspace) {
        reaper.opened(containerId);
        return new DockerSandbox(docker, connections.streams(), containerId, runtime, workspace, this::removed, this::kept);
    }

    private void removed(String containerId) {
        oomWatch.unwatch(containerId);
        reaper.closed(containerId);
    }

    private void kept(String containerId) {
        oomWatch.unwatch(containerId);
        reaper.kept(containerId);
    }

    /** A started gVisor sandbox on this host is watched for the kernel's OOM kills, which it cannot survive. */
    private void watchMemory(DockerSandbox sandbox) {
        if (sandbox.runtime().startsWith("runsc") && connections.onThisHost()) {
            oomWatch.watch(sandbox.id(), sandbox::outOfMemory);
        }
    }

    /**
     * The one way a sandbox that failed to come up is let go: diagnosed (its last words), removed, and
     * {@code what} said with the cause. Keeps the thread's interrupt.
     */
    private static SandboxException failed(DockerSandbox sandbox, String what, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        SandboxExit exit = sandbox.diagnose();
        sandbox.close();
        Throwable cause = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null ? e.getCause() : e;
        String why = cause instanceof java.util.concurrent.TimeoutException ? "no answer within " + READY_TIMEOUT.toSeconds() + " s"
                : cause instanceof InterruptedException ? "interrupted" : cause.getMessage();
        return new SandboxException(what + ": " + why + (exit.lastOutput().isEmpty() ? "" : " — last output: " + exit.lastOutput()), e);
    }

    HostConfig hostConfig(Workspace workspace) {
        Map<String, String> tmpfs = Map.of("/tmp", "rw,nosuid,nodev,noexec,size=" + spec.tmpBytes() + ",mode=1777");
        // the workspace is a host tmpfs of its own (see Workspaces), bound in so it outlives this container
        Bind workspaceBind = new Bind(workspace.dir().toString(), new Volume(SandboxSpec.WORKSPACE), AccessMode.rw,
                SELContext.DEFAULT, null, PropagationMode.PRIVATE);
        List<Ulimit> ulimits = List.of(
                new Ulimit("nproc", spec.nprocLimit(), spec.nprocLimit()),
                new Ulimit("nofile", 1024L, 1024L),
                new Ulimit("fsize", spec.maxFileBytes(), spec.maxFileBytes()),
                new Ulimit("core", 0L, 0L));
        return HostConfig.newHostConfig()
                .withRuntime(spec.runtime())
                .withNetworkMode("none")
                .withCapDrop(Capability.ALL)
                .withSecurityOpts(List.of("no-new-privileges"))
                .withReadonlyRootfs(true)
                .withTmpFs(tmpfs)
                .withBinds(binds(workspaceBind))
                .withMemory(spec.memoryBytes())
                .withMemorySwap(spec.memoryBytes())
                .withNanoCPUs((long) (spec.cpus() * 1_000_000_000L))
                .withPidsLimit(spec.pidsLimit())
                .withUlimits(ulimits)
                .withInit(true)
                .withIpcMode("private")
                // Output reaches us over the attach stream only. The engine's default json-file log
                // would also copy every line a cell prints to the host's disk, unbounded and kept
                // until the container goes, at a CPU cost in dockerd for each line.
                .withLogConfig(new LogConfig(LogConfig.LoggingType.NONE))
                .withAutoRemove(false);
    }

    /** The workspace, and the package cache read-only: fetched artifacts, installed offline by the runner. */
    private List<Bind> binds(Bind workspaceBind) {
        if (spec.packageCache() == null) {
            return List.of(workspaceBind);
        }
        return List.of(workspaceBind, new Bind(spec.packageCache().toString(), new Volume(SandboxSpec.PACKAGES), AccessMode.ro,
                SELContext.DEFAULT, null, PropagationMode.PRIVATE));
    }

    @Override
    public Sandbox adopt(String containerId, Workspace workspace, long linesStored) {
        InspectContainerResponse container;
        try {
            container = docker.inspectContainerCmd(containerId).exec();
        } catch (NotFoundException e) {
            throw new SandboxException("its sandbox is gone (removed, or the engine's data was reset)", e);
        } catch (RuntimeException e) {
            throw new SandboxException("its sandbox could not be inspected: " + e.getMessage(), e);
        }
        Map<String, String> labels = container.getConfig() == null || container.getConfig().getLabels() == null
                ? Map.of() : container.getConfig().getLabels();
        if (!deploymentId.equals(labels.get(LABEL_DEPLOYMENT))) {
            throw new SandboxException("its sandbox belongs to another deployment");
        }
        if (container.getState() == null || !Boolean.TRUE.equals(container.getState().getRunning())) {
            throw new SandboxException("its sandbox stopped while the server was away (the engine restarted, or the sandbox died)");
        }
        String runtime = container.getHostConfig() == null || container.getHostConfig().getRuntime() == null
                ? spec.runtime() : container.getHostConfig().getRuntime();
        DockerSandbox sandbox = newSandbox(containerId, runtime, workspace);
        try {
            sandbox.adopt(linesStored);
            watchMemory(sandbox);
            return sandbox;
        } catch (Exception e) {
            throw failed(sandbox, "could not attach to its sandbox", e);
        }
    }

    /**
     * runsc only: runc would need a working CRIU (Debian's fails {@code criu check} on these kernels),
     * the engine must run in experimental mode, and on this host, since checkpoints are files we move.
     */
    @Override
    public CheckpointSupport checkpoints() {
        if (!"runsc".equals(spec.runtime())) {
            return CheckpointSupport.no("the " + spec.runtime() + " runtime cannot checkpoint sandboxes here (only gVisor's runsc can)");
        }
        if (!connections.onThisHost()) {
            return CheckpointSupport.no("the Docker engine is on another host, and checkpoints are files this server moves");
        }
        try {
            if (!Boolean.TRUE.equals(docker.infoCmd().exec().getExperimentalBuild())) {
                return CheckpointSupport.no("the Docker engine does not run in experimental mode, which checkpoints need "
                        + "(scripts/setup-host.sh sets it)");
            }
        } catch (RuntimeException e) {
            return CheckpointSupport.no("no Docker engine answers: " + e.getMessage());
        }
        return CheckpointSupport.yes();
    }

    /**
     * Checkpointed while it runs on, then removed: a checkpoint that fails half-way (a full disk)
     * leaves a running sandbox running as it was, where one that stops it (runsc's exit) takes the
     * interpreter down with it. The sandbox is idle, so nothing changes between the two.
     */
    @Override
    public Checkpoint suspend(Sandbox sandbox, Path parent) {
        DockerSandbox mine = (DockerSandbox) sandbox;
        Checkpoint written = checkpoint(mine, parent);
        mine.close();
        return written;
    }

    @Override
    public Checkpoint copy(Sandbox sandbox, Path parent) {
        return checkpoint((DockerSandbox) sandbox, parent);
    }

    /** Writes the sandbox's interpreter under {@code parent} and leaves it running. */
    private Checkpoint checkpoint(DockerSandbox mine, Path parent) {
        String name = "ck-" + UUID.randomUUID().toString().replace("-", ""); // containerd refuses a name it already holds
        Path dir = parent.resolve(name);
        try {
            Files.createDirectories(parent);
            for (long wait = 100; ; wait *= 2) {
                try {
                    checkpoints.create(mine.id(), name, parent, false);
                    break;
                } catch (SandboxException e) {
                    // containerd files the container's spec as content beside every checkpoint and refuses a copy it
                    // still holds: a second checkpoint of one container (forked twice) before its collector has
                    // dropped the first one's spec is "already exists". The collector runs within a second or so,
                    // later on a busy machine: wait for it (0.1 s, 0.2, …, 3.2 s: 6.3 s at most).
                    if (wait > 3200 || e.getMessage() == null || !e.getMessage().contains("already exists")) {
                        throw e;
                    }
                    Trees.delete(dir);
                    sleep(wait);
                }
            }
        } catch (IOException | RuntimeException e) {
            Trees.delete(dir);
            if (!mine.running()) {
                mine.close();
            }
            throw e instanceof SandboxException se ? se : new SandboxException("could not write a checkpoint: " + e.getMessage(), e);
        }
        return new Checkpoint(dir, Trees.size(dir));
    }

    @Override
    public Sandbox restore(Checkpoint checkpoint, Workspace workspace, long linesStored) {
        if (!Files.isDirectory(checkpoint.dir())) {
            throw new CheckpointRefusedException("its checkpoint is missing", null);
        }
        acquireStartSlot(RESTORE_SLOT_WAIT);
        try {
            long t0 = System.nanoTime();
            DockerSandbox sandbox = newSandbox(createContainer(workspace), spec.runtime(), workspace);
            try {
                long created = System.nanoTime();
                Path placed = engineRoot().resolve("containers").resolve(sandbox.id()).resolve("checkpoints").resolve(checkpoint.name());
                linkTree(checkpoint.dir(), placed);
                // Docker hands the folder to containerd as content named by its hash, and containerd refuses
                // content it already holds: the same state restored twice (suspended again unchanged, or
                // forked twice) would fail with "already exists". A file of its own makes every restore unique.
                Files.writeString(placed.resolve("codeinterp-restore"), UUID.randomUUID().toString());
                long placedAt = System.nanoTime();
                sandbox.adopt(linesStored);
                long attached = System.nanoTime();
                checkpoints.startFrom(sandbox.id(), checkpoint.name());
                watchMemory(sandbox);
                log.info("restored {} MiB in {} ms: create {}, place {}, attach {}, start from the checkpoint {}",
                        checkpoint.bytes() >> 20, ms(System.nanoTime() - t0), ms(created - t0), ms(placedAt - created),
                        ms(attached - placedAt), ms(System.nanoTime() - attached));
                return sandbox;
            } catch (Exception e) {
                SandboxException failure = failed(sandbox, "could not restore its checkpoint", e);
                throw e instanceof CheckpointRefusedException ? new CheckpointRefusedException(failure.getMessage(), e) : failure;
            }
        } finally {
            starts.release();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxException("interrupted while writing a checkpoint", e);
        }
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }

    /** The engine's data directory (its containers' checkpoints live under it), asked once. */
    private Path engineRoot() {
        Path root = engineRoot;
        if (root == null) {
            String dir = docker.infoCmd().exec().getDockerRootDir();
            root = Path.of(dir == null ? "/var/lib/docker" : dir);
            engineRoot = root;
        }
        return root;
    }

    /** Hard links where the file systems allow (a restore costs no copy), copies where not. */
    private static void linkTree(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (var files = Files.list(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(f.getFileName().toString());
                if (Files.isDirectory(f, LinkOption.NOFOLLOW_LINKS)) {
                    linkTree(f, target);
                } else {
                    try {
                        Files.createLink(target, f);
                    } catch (IOException | UnsupportedOperationException e) {
                        Files.copy(f, target, StandardCopyOption.COPY_ATTRIBUTES);
                    }
                }
            }
        }
    }

    @Override
    public int reapOrphans(Set<String> adopted) {
        return reaper.reapOrphans(adopted);
    }

    /** Every container carrying our label, of any process, running or not. */
    public List<Container> managedContainers() {
        return reaper.managedContainers();
    }

    public String instanceId() {
        return instanceId;
    }

    public String deploymentId() {
        return deploymentId;
    }

    /** The engine's state, probed at most once a second however often {@code /healthz} is asked. */
    @Override
    public EngineInfo info() {
        EngineInfo cached = lastInfo;
        if (cached != null && System.nanoTime() - lastInfoAt < INFO_CACHE_NANOS) {
            return cached;
        }
        EngineInfo fresh = probe();
        lastInfo = fresh;
        lastInfoAt = System.nanoTime();
        return fresh;
    }

    private EngineInfo probe() {
        try {
            Version version = docker.versionCmd().exec();
            Info info = docker.infoCmd().exec();
            List<String> runtimes = new ArrayList<>();
            Map<?, ?> registered = runtimesOf(info);
            registered.keySet().forEach(k -> runtimes.add(String.valueOf(k)));
            boolean imagePresent = true;
            String problem = null;
            try {
                docker.inspectImageCmd(spec.image()).exec();
            } catch (NotFoundException e) {
                imagePresent = false;
                problem = "sandbox image " + spec.image() + " is not built";
            }
            if (!runtimes.contains(spec.runtime())) {
                problem = "runtime " + spec.runtime() + " is not registered with the Docker engine";
            }
            String runtimeVersionNow = runtimes.contains(spec.runtime())
                    ? runtimeVersion.of(spec.runtime(), version.getComponents(), registered) : null;
            return new EngineInfo(imagePresent && problem == null, version.getVersion(), runtimes, spec.runtime(),
                    runtimeVersionNow, RuntimePlatform.of(spec.runtime(), registered), spec.image(), problem);
        } catch (RuntimeException e) {
            return EngineInfo.unavailable(spec.runtime(), spec.image(), "no Docker engine answers: " + e.getMessage());
        }
    }

    /** Removes this process's sandboxes; called at shutdown, after sessions closed theirs. */
    @Override
    public void close() {
        try {
            oomWatch.close();
            reaper.close();
        } finally {
            connections.close();
        }
    }
}
