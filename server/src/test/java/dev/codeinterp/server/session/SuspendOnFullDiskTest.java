package dev.codeinterp.server.session;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A suspension that meets a full disk fails plainly and costs the session nothing: it stays
 * running with its variables and files, and nothing half-written is left to be restored later.
 * The disk is a small tmpfs mounted where suspended sessions are written.
 */
class SuspendOnFullDiskTest {

    @Test
    void when_the_checkpoint_does_not_fit_the_suspend_fails_and_the_session_goes_on_with_its_variables() throws Exception {
        assertSuspendFailsAndKeepsEverything("512k", "x = 41\nopen('f.txt', 'w').write('kept')");
    }

    @Test
    void when_the_files_do_not_fit_beside_the_checkpoint_the_suspend_fails_and_the_session_goes_on_with_its_variables()
            throws Exception {
        // the interpreter's checkpoint (~2 MiB) fits, its 6 MiB of files do not
        assertSuspendFailsAndKeepsEverything("5m", "x = 41\nopen('f.txt', 'w').write('kept')\n"
                + "import os\nopen('big.bin', 'wb').write(os.urandom(6 << 20))");
    }

    private static void assertSuspendFailsAndKeepsEverything(String diskSize, String state) throws Exception {
        Path dataDir = Files.createTempDirectory("codeinterp-full-disk");
        Path suspended = Files.createDirectories(dataDir.resolve("suspended"));
        mount(diskSize, suspended);
        try (TestApp app = TestApp.start("runsc", Map.of("POOL_SIZE", "0"), dataDir)) {
            TestApp.SessionRef s = app.createSession();
            app.execute(s, state, null);

            TestApp.Response refused = app.post("/api/v1/sessions/" + s.id() + "/suspend", "", s.token());
            assertThat(refused.status()).as(refused.body()).isEqualTo(503);
            assertThat(refused.json().string("error")).as("says what failed").containsAnyOf("checkpoint", "files");
            assertThat(app.get("/api/v1/sessions/" + s.id(), s.token()).json().string("state")).isEqualTo("running");
            try (var left = Files.list(suspended)) {
                assertThat(left.toList()).as("nothing half-written is kept").isEmpty();
            }

            JsonObject after = app.execute(s, "print(open('f.txt').read())\nx + 1", null);
            assertThat(after.has("restarted")).as(after.toString()).isFalse();
            assertThat(after.string("stdout")).isEqualTo("kept\n");
            assertThat(after.objectList("results").get(0).string("text/plain")).isEqualTo("42");
            app.delete("/api/v1/sessions/" + s.id(), s.token());
        } finally {
            run("umount", "-l", suspended.toString());
            TestApp.discardWorkspaces(dataDir);
        }
    }

    private static void mount(String size, Path dir) throws IOException, InterruptedException {
        run("mount", "-t", "tmpfs", "-o", "size=" + size, "codeinterp-test-full-disk", dir.toString());
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).inheritIO().start();
        assertThat(p.waitFor()).as(String.join(" ", command)).isZero();
    }
}
