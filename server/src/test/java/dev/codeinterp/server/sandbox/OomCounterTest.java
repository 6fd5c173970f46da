package dev.codeinterp.server.sandbox;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** How the OOM watch reads the kernel's count of OOM kills, on both cgroup versions' files. */
class OomCounterTest {
    @TempDir
    Path cgroups;

    @Test
    void cgroup_v1_names_the_kills_after_the_switch_that_would_disable_them() {
        assertThat(OomCounter.parse("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n")).isEqualTo(3);
    }

    @Test
    void cgroup_v2_names_them_beside_the_group_kills() {
        assertThat(OomCounter.parse("low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n")).isEqualTo(1);
    }

    @Test
    void a_file_without_the_count_or_with_a_damaged_one_says_so() {
        assertThat(OomCounter.parse("oom_kill_disable 0\nunder_oom 0\n")).isEqualTo(-1);
        assertThat(OomCounter.parse("oom_kill many\n")).isEqualTo(-1);
        assertThat(OomCounter.parse("")).isEqualTo(-1);
    }

    @Test
    void the_counter_kept_open_sees_the_count_move_and_the_cgroup_go() throws IOException {
        Path dir = Files.createDirectories(cgroups.resolve("memory/docker/abc123"));
        Path file = dir.resolve("memory.oom_control");
        Files.writeString(file, "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n");
        try (OomCounter counter = OomCounter.of(cgroups, "abc123")) {
            assertThat(counter).isNotNull();
            assertThat(counter.kills()).isZero();
            Files.writeString(file, "oom_kill_disable 0\nunder_oom 1\noom_kill 1\n");
            assertThat(counter.kills()).isEqualTo(1);
            Files.writeString(file, "");
            assertThat(counter.kills()).isEqualTo(-1);
        }
    }

    @Test
    void the_systemd_drivers_cgroup_v2_scope_is_found_too() throws IOException {
        Path dir = Files.createDirectories(cgroups.resolve("system.slice/docker-abc123.scope"));
        Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n");
        try (OomCounter counter = OomCounter.of(cgroups, "abc123")) {
            assertThat(counter.kills()).isZero();
        }
    }

    @Test
    void a_container_with_no_cgroup_here_has_no_counter() {
        assertThat(OomCounter.of(cgroups, "abc123")).isNull();
    }
}
