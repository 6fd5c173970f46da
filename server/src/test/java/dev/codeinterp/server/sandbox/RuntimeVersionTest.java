package dev.codeinterp.server.sandbox;

import com.github.dockerjava.api.model.VersionComponent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** How /healthz learns the runtime's version: real binaries (small scripts) run the way runsc is. */
class RuntimeVersionTest {
    @TempDir
    Path dir;

    private static final List<VersionComponent> COMPONENTS = List.of(
            new VersionComponent().withName("Engine").withVersion("20.10.24+dfsg1"),
            new VersionComponent().withName("runc").withVersion("1.1.5+ds1"));

    /** A runtime binary printing {@code output}; each run appends a line to {@code runs}. */
    private Path binary(String name, String output, int exitCode) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, "#!/bin/sh\necho run >> '" + dir.resolve(name + ".runs") + "'\nprintf '" + output + "'\nexit "
                + exitCode + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    private long runs(String name) throws IOException {
        Path runs = dir.resolve(name + ".runs");
        return Files.exists(runs) ? Files.readAllLines(runs).size() : 0;
    }

    private static Map<String, Object> registered(Path runsc) {
        return Map.of("runc", Map.of("path", "runc"),
                "runsc", Map.of("path", runsc.toString(), "runtimeArgs", List.of("--network=none")));
    }

    @Test
    void runc_is_named_as_the_engine_reports_it_without_running_anything() throws IOException {
        Path runsc = binary("runsc", "runsc version 0.0~20240729.0\\nspec: 1.0.2-dev\\n", 0);
        assertThat(new RuntimeVersion(true).of("runc", COMPONENTS, registered(runsc))).isEqualTo("1.1.5+ds1");
        assertThat(runs("runsc")).isZero();
    }

    @Test
    void runsc_answers_for_itself_once_per_binary() throws IOException {
        Path runsc = binary("runsc", "runsc version 0.0~20221219.0\\nspec: 1.0.2-dev\\n", 0);
        RuntimeVersion version = new RuntimeVersion(true);
        assertThat(version.of("runsc", COMPONENTS, registered(runsc))).isEqualTo("0.0~20221219.0");
        assertThat(version.of("runsc", COMPONENTS, registered(runsc))).isEqualTo("0.0~20221219.0");
        assertThat(runs("runsc")).isEqualTo(1);

        binary("runsc", "runsc version release-20240729.0\\nspec: 1.1.0\\n", 0); // replaced under a running server
        assertThat(version.of("runsc", COMPONENTS, registered(runsc))).isEqualTo("release-20240729.0");
        assertThat(runs("runsc")).isEqualTo(2);
    }

    @Test
    void an_engine_on_another_host_names_a_path_that_is_not_ours_to_run() throws IOException {
        Path runsc = binary("runsc", "runsc version 0.0~20240729.0\\n", 0);
        assertThat(new RuntimeVersion(false).of("runsc", COMPONENTS, registered(runsc))).isNull();
        assertThat(runs("runsc")).isZero();
    }

    @Test
    void a_runtime_that_fails_is_missing_or_unregistered_has_no_version() throws IOException {
        Path broken = binary("broken", "no such flag\\n", 2);
        RuntimeVersion version = new RuntimeVersion(true);
        assertThat(version.of("runsc", COMPONENTS, registered(broken))).isNull();
        assertThat(version.of("runsc", COMPONENTS, registered(dir.resolve("absent")))).isNull();
        assertThat(version.of("kata", COMPONENTS, registered(broken))).isNull();
    }

    @Test
    void the_version_is_the_first_line_after_the_word_version() {
        assertThat(RuntimeVersion.fromOutput("runsc version 0.0~20240729.0\nspec: 1.0.2-dev\n")).isEqualTo("0.0~20240729.0");
        assertThat(RuntimeVersion.fromOutput("1.2.3\n")).isEqualTo("1.2.3");
        assertThat(RuntimeVersion.fromOutput("  \n")).isNull();
    }
}
