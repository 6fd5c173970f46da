package dev.codeinterp.server.config;

import dev.codeinterp.server.store.TestStores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A server told to use a database it cannot use ends at once with status 2 and one line that says
 * why, never a stack trace and never the password.
 */
class BadDatabaseSettingsTest {
    private static final String SECRET = "hunter2-do-not-print";

    @TempDir
    Path data;

    @Test
    void a_url_that_is_not_postgresql_is_refused_by_name() throws Exception {
        String err = start(Map.of("DATABASE_URL", "jdbc:mysql://db.example/codeinterp?password=" + SECRET));
        assertThat(err).contains("CODEINTERP_DATABASE_URL must be jdbc:postgresql://");
    }

    @Test
    void a_database_nobody_answers_at_is_named_with_the_drivers_reason() throws Exception {
        // port 1 on loopback: nothing listens, the connection is refused at once
        String err = start(Map.of("DATABASE_URL", "jdbc:postgresql://127.0.0.1:1/codeinterp?user=codeinterp&password=" + SECRET));
        assertThat(err).startsWith("codeinterp: cannot connect to postgresql://127.0.0.1:1/codeinterp: ").contains("refused");
    }

    @Test
    void a_password_file_that_cannot_be_read_is_named() throws Exception {
        String err = start(Map.of("DATABASE_URL", "jdbc:postgresql://127.0.0.1:1/codeinterp",
                "DATABASE_PASSWORD_FILE", data.resolve("no-such-file").toString()));
        assertThat(err).contains("CODEINTERP_DATABASE_PASSWORD_FILE").contains("no-such-file");
    }

    @Test
    void a_refused_password_is_said_without_the_password() throws Exception {
        assumeTrue(TestStores.postgres(), "needs a PostgreSQL server (test.sh's second pass)");
        Path wrong = Files.writeString(data.resolve("password"), SECRET + "\n");
        Map<String, String> env = new java.util.HashMap<>(TestStores.environment(data));
        env.put("DATABASE_PASSWORD_FILE", wrong.toString());
        String err = start(env);
        assertThat(err).startsWith("codeinterp: cannot connect to postgresql://127.0.0.1:").contains("password authentication failed");
    }

    /** Starts the server with {@code settings} (CODEINTERP_* without the prefix); returns what it said on stderr. */
    private String start(Map<String, String> settings) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.codeinterp.server.Main");
        pb.environment().put("CODEINTERP_DATA_DIR", data.toString());
        pb.environment().put("CODEINTERP_PORT", "0");
        settings.forEach((k, v) -> pb.environment().put("CODEINTERP_" + k, v));
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process server = pb.start();
        try {
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("the server ended by itself").isTrue();
            String err = new String(server.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(server.exitValue()).as(err).isEqualTo(2);
            assertThat(err).startsWith("codeinterp: ").doesNotContain(SECRET, "Exception", "\tat ");
            assertThat(err.lines().count()).as(err).isEqualTo(1);
            return err;
        } finally {
            server.destroyForcibly();
        }
    }
}
