package dev.codeinterp.server.config;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A server started with a setting it cannot use ends at once, non-zero, saying only what is wrong. */
class BadSettingsTest {
    @ParameterizedTest(name = "CODEINTERP_{0}={1}")
    @CsvSource({
            "PORT, notaport, CODEINTERP_PORT",
            "HOST, 0.0.0.0, refusing to listen on 0.0.0.0 without API keys",
            "ALLOWED_HOSTS, http://team.example, CODEINTERP_ALLOWED_HOSTS",
            "RUNTIME, kata, runtime must be one of",
            "DATABASE_SYNC, fast, CODEINTERP_DATABASE_SYNC must be normal or full",
    })
    void a_bad_setting_ends_the_server_with_its_message_alone(String name, String value, String said) throws Exception {
        Path data = Files.createTempDirectory("codeinterp-bad-settings");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.codeinterp.server.Main");
        pb.environment().put("CODEINTERP_DATA_DIR", data.toString());
        pb.environment().put("CODEINTERP_PORT", "0");
        pb.environment().put("CODEINTERP_" + name, value);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process server = pb.start();
        try {
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("the server ended by itself").isTrue();
            String err = new String(server.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(server.exitValue()).isNotZero();
            assertThat(err).startsWith("codeinterp: ").contains(said).doesNotContain("Exception", "\tat ");
            assertThat(err.lines().count()).isEqualTo(1);
        } finally {
            server.destroyForcibly();
            deleteQuietly(data);
        }
    }

    private static void deleteQuietly(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
