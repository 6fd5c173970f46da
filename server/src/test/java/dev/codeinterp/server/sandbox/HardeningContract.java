package dev.codeinterp.server.sandbox;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.LogConfig;
import com.github.dockerjava.api.model.Ulimit;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every sandbox must be, checked on the real container and from inside it. Each runtime
 * runs the same contract (see {@link RuncHardeningTest} and {@link RunscHardeningTest}).
 */
abstract class HardeningContract {

    abstract String runtime();

    /** gVisor's platform the engine registers this runtime with; null for runc. */
    String platform() {
        return null;
    }

    TestApp app() {
        return TestApp.shared(runtime());
    }

    private InspectContainerResponse anyOfOurSandboxes() {
        DockerSandboxBackend backend = app().main.backend();
        for (int i = 0; i < 100; i++) {
            List<Container> ours = backend.managedContainers().stream()
                    .filter(c -> backend.instanceId().equals(c.getLabels().get(DockerSandboxBackend.LABEL_INSTANCE)))
                    .filter(c -> "running".equals(c.getState()))
                    .toList();
            if (!ours.isEmpty()) {
                try {
                    return backend.client().inspectContainerCmd(ours.get(0).getId()).exec();
                } catch (NotFoundException gone) {
                    // removed between the listing and the inspect (a session closed by another test): look again
                }
            }
            sleep(100);
        }
        throw new AssertionError("no running sandbox of this server found");
    }

    @Test
    void the_container_is_created_with_every_hardening_flag() {
        InspectContainerResponse c = anyOfOurSandboxes();
        HostConfig h = c.getHostConfig();
        assertThat(h.getRuntime()).isEqualTo(runtime());
        assertThat(h.getNetworkMode()).isEqualTo("none");
        assertThat(h.getCapDrop()).containsExactly(Capability.ALL);
        assertThat(h.getSecurityOpts()).contains("no-new-privileges");
        assertThat(h.getReadonlyRootfs()).isTrue();
        assertThat(h.getMemory()).isEqualTo(512L << 20);
        assertThat(h.getMemorySwap()).isEqualTo(h.getMemory());
        assertThat(h.getNanoCPUs()).isEqualTo(1_000_000_000L);
        assertThat(h.getPidsLimit()).isPositive();
        assertThat(h.getInit()).isTrue();
        assertThat(h.getLogConfig().getType()).as("what a cell prints is not also logged to the host's disk")
                .isEqualTo(LogConfig.LoggingType.NONE);
        assertThat(c.getLogPath()).isNullOrEmpty();
        assertThat(h.getTmpFs()).containsKey("/tmp");
        assertThat(h.getTmpFs().get("/tmp")).contains("size=", "noexec");
        // The workspace is the session's own size-bounded host tmpfs, bind-mounted (see Workspaces)
        assertThat(h.getBinds()).anySatisfy(b -> {
            assertThat(b.getVolume().getPath()).isEqualTo("/workspace");
            assertThat(b.getPath()).contains("workspaces");
        });
        // The package cache comes in read-only, and nothing else is mounted (ARCHITECTURE.md, "Packages")
        assertThat(h.getBinds()).hasSize(2).anySatisfy(b -> {
            assertThat(b.getVolume().getPath()).isEqualTo("/packages");
            assertThat(b.getAccessMode()).isEqualTo(com.github.dockerjava.api.model.AccessMode.ro);
        });
        Map<String, Long> ulimits = Arrays.stream(h.getUlimits()).collect(Collectors.toMap(Ulimit::getName, Ulimit::getHardLong));
        assertThat(ulimits).containsKeys("nproc", "nofile", "fsize");
        assertThat(c.getConfig().getUser()).isEqualTo("1000:1000");
        assertThat(c.getConfig().getLabels()).containsEntry(DockerSandboxBackend.LABEL_MANAGED, "true");
        assertThat(c.getConfig().getEnv()).noneMatch(e -> e.startsWith("CODEINTERP_") || e.contains("CANARY"));
    }

    @Test
    void only_the_loopback_interface_exists() {
        JsonObject r = app().executeOnce("import socket\nprint(sorted(n for _, n in socket.if_nameindex()))", null);
        assertThat(r.string("stdout").trim()).isEqualTo("['lo']");
    }

    @Test
    void writes_outside_the_workspace_and_tmp_fail() {
        String code = String.join("\n",
                "import os",
                "for path in ['/etc/x', '/usr/x', '/opt/runner/x', '/x', '/root/x', '/var/x', '/packages/x']:",
                "    try:",
                "        open(path, 'w').write('x'); print('WROTE', path)",
                "    except OSError as e:",
                "        print('refused', path)",
                "for path in ['/workspace/ok.txt', '/tmp/ok.txt']:",
                "    open(path, 'w').write('x'); print('wrote', path)");
        String out = app().executeOnce(code, null).string("stdout");
        assertThat(out).doesNotContain("WROTE");
        assertThat(out).contains("refused /etc/x", "refused /usr/x", "refused /opt/runner/x", "refused /packages/x", "wrote /workspace/ok.txt", "wrote /tmp/ok.txt");
    }

    @Test
    void the_runner_has_no_capabilities_and_cannot_gain_privileges() {
        // gVisor's /proc/self/status has no NoNewPrivs line, so ask the kernel: prctl(PR_GET_NO_NEW_PRIVS)
        JsonObject r = app().executeOnce("import os, ctypes\nprint(os.getuid())\n"
                + "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('CapEff')])\n"
                + "print(ctypes.CDLL(None, use_errno=True).prctl(39, 0, 0, 0, 0))", null);
        String[] lines = r.string("stdout").trim().split("\n");
        assertThat(lines).as(r.asMap().toString()).hasSize(3);
        assertThat(lines[0]).isEqualTo("1000");
        assertThat(lines[1]).isEqualTo("['0000000000000000']");
        assertThat(lines[2]).as("NoNewPrivs").isEqualTo("1");
    }

    @Test
    void a_fork_bomb_is_contained_and_the_server_stays_healthy() {
        String code = String.join("\n",
                "import os, time",
                "count = 0",
                "try:",
                "    while count < 100000:",
                "        if os.fork() == 0:",
                "            time.sleep(60)",
                "            os._exit(0)",
                "        count += 1",
                "except OSError as e:",
                "    print('contained after', count, type(e).__name__)");
        JsonObject r = app().executeOnce(code, 20.0);
        assertThat(r.string("stdout")).as(r.asMap().toString()).contains("contained after");
        long forked = Long.parseLong(r.string("stdout").replaceAll("(?s).*contained after (\\d+).*", "$1"));
        assertThat(forked).isLessThan(1000);
        assertThat(app().get("/healthz", null).json().string("status")).isEqualTo("ok");
        assertThat(app().executeOnce("print('still here')", null).string("stdout")).isEqualTo("still here\n");
    }

    @Test
    void a_memory_bomb_ends_as_oom_and_the_session_works_again() {
        assertThat(app().main.backend().info().runtimePlatform()).as("the platform this contract holds on").isEqualTo(platform());
        TestApp.SessionRef s = app().createSession();
        JsonObject r = app().execute(s, "blocks = []\nwhile True:\n    blocks.append(bytearray(64 * 1024 * 1024))", 60.0);
        assertThat(r.string("status")).as(r.asMap().toString()).isEqualTo("oom");
        JsonObject after = app().execute(s, "print('alive')", null);
        assertThat(after.string("stdout")).isEqualTo("alive\n");
    }

    @Test
    void a_cell_printing_100_mb_is_cut_at_the_output_cap_without_growing_the_heap() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        long before = rt.totalMemory() - rt.freeMemory();
        JsonObject r = app().executeOnce("import sys, os\nchunk = 'x' * (1024 * 1024)\n"
                + "for _ in range(50): sys.stdout.write(chunk)\n"
                + "for _ in range(50): os.write(1, chunk.encode())\n", 120.0);
        System.gc();
        long after = rt.totalMemory() - rt.freeMemory();
        assertThat(r.string("stdout").length()).isLessThanOrEqualTo(1 << 20);
        assertThat(r.string("stderr")).contains("output truncated");
        assertThat(after - before).isLessThan(64L << 20);
    }

    @Test
    void a_canary_secret_in_the_servers_environment_never_appears_in_any_output() {
        String canary = System.getenv("CODEINTERP_TEST_CANARY");
        assertThat(canary).as("surefire sets CODEINTERP_TEST_CANARY").isNotBlank();
        String code = String.join("\n",
                "import os, glob",
                "print(dict(os.environ))",
                "for p in glob.glob('/proc/*/environ') + glob.glob('/proc/*/cmdline'):",
                "    try: print(p, open(p, 'rb').read())",
                "    except OSError as e: print(p, e)");
        JsonObject r = app().executeOnce(code, null);
        assertThat(r.string("stdout")).contains("PATH").doesNotContain(canary);
        assertThat(r.string("stderr")).doesNotContain(canary);
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
