package dev.codeinterp.server.sandbox;

import dev.codeinterp.server.config.Settings;

import java.nio.file.Path;
import java.util.List;

/**
 * The hardened shape of every sandbox, derived from settings only: users never choose image,
 * mounts, flags or runtime.
 */
public record SandboxSpec(String image, String runtime, long memoryBytes, double cpus, int processLimit,
                          long workspaceBytes, long tmpBytes, long maxFileBytes, Path packageCache) {

    public SandboxSpec(String image, String runtime, long memoryBytes, double cpus, int processLimit,
                       long workspaceBytes, long tmpBytes, long maxFileBytes) {
        this(image, runtime, memoryBytes, cpus, processLimit, workspaceBytes, tmpBytes, maxFileBytes, null);
    }

    public static final String USER = "1000:1000";
    public static final String WORKSPACE = "/workspace";
    public static final List<String> COMMAND = List.of("python3", "-u", "-P", "-m", "codeinterp_runner"); // image: PYTHONPATH=/opt/runner

    /** The whole environment of the runner: an allow-list, nothing inherited from the server. */
    public static final List<String> ENVIRONMENT = List.of(
            "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME=/workspace",
            "LANG=C.UTF-8",
            "PYTHONUNBUFFERED=1",
            "PYTHONDONTWRITEBYTECODE=1",
            "MPLBACKEND=Agg",
            "MPLCONFIGDIR=/tmp/matplotlib",
            "OPENBLAS_NUM_THREADS=1",
            "OMP_NUM_THREADS=1");

    /** Where the package cache's blobs appear, read-only (docs/ARCHITECTURE.md, "Packages"). */
    public static final String PACKAGES = "/packages";

    /**
     * {@code runtime}: the one chosen at start ({@link dev.codeinterp.server.config.RuntimeChoice});
     * {@code packageCache}: the host folder every sandbox sees read-only at {@link #PACKAGES}, or null for none.
     */
    public static SandboxSpec from(Settings s, String runtime, Path packageCache) {
        return new SandboxSpec(s.image(), runtime, s.memoryBytes(), s.cpus(), s.processLimit(),
                s.workspaceBytes(), s.tmpBytes(), s.workspaceBytes(), packageCache);
    }

    /**
     * The kernel-side process cap. Under runc the pids cgroup holds the cap per container; under
     * runsc a low pids limit kills the whole sandbox, so there the cap is RLIMIT_NPROC (enforced
     * per sandbox by gVisor) and the cgroup limit is only a high backstop.
     */
    public long pidsLimit() {
        return "runsc".equals(runtime) ? 4096 : processLimit;
    }

    /**
     * RLIMIT_NPROC. Under runc it counts every process of uid 1000 on the host, across sandboxes,
     * so it is set high there and the pids cgroup does the per-sandbox work. Under runsc a
     * forked runner costs the sandbox more than 8 MiB (measured: a 512 MiB sandbox was OOM-killed
     * before 64 forks, and contained at 32), so the cap also keeps forks failing before memory runs out.
     */
    public long nprocLimit() {
        if (!"runsc".equals(runtime)) {
            return 65536;
        }
        return Math.max(16, Math.min(processLimit, memoryBytes / GVISOR_BYTES_PER_PROCESS));
    }

    /** Memory budgeted per process under gVisor (1 GiB sandbox → 64 processes). */
    static final long GVISOR_BYTES_PER_PROCESS = 16L << 20;
}
