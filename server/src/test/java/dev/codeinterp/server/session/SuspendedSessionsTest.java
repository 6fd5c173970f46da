package dev.codeinterp.server.session;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What happens to suspended sessions over time, on gVisor: the idle timer suspends them, a server
 * restart keeps them, and when their variables cannot come back (kept too long, over the disk
 * budget, a damaged or missing checkpoint) their files and history stay and the next cell says so.
 */
class SuspendedSessionsTest {
    private static final String KEEP = "x = 41\nopen('f.txt', 'w').write('kept')";
    private static final String CHECK = "import os\nprint(sorted(os.listdir('.')))\nx + 1";

    @Test
    void an_idle_session_is_suspended_by_the_timer_and_its_next_cell_brings_it_back() throws Exception {
        try (TestApp app = TestApp.start("runsc", Map.of("POOL_SIZE", "0", "SUSPEND_AFTER", "1s", "REAP_INTERVAL", "200ms"))) {
            assertThat(app.get("/healthz", null).json().object("idle").optBoolean("keeps_variables", false)).isTrue();
            TestApp.SessionRef s = app.createSession();
            app.execute(s, KEEP, null);
            waitUntil(() -> state(app, s).equals("suspended"), Duration.ofSeconds(30));
            assertKept(app.execute(s, CHECK, null));
            assertThat(state(app, s)).isEqualTo("running");
        }
    }

    @Test
    void a_restarted_server_brings_back_a_session_suspended_before_it_stopped() throws Exception {
        Path dataDir = Files.createTempDirectory("codeinterp-suspended-restart");
        TestApp.SessionRef s;
        TestApp first = TestApp.start("runsc", Map.of("POOL_SIZE", "0"), dataDir);
        try {
            s = first.createSession();
            first.execute(s, KEEP, null);
            assertThat(first.post("/api/v1/sessions/" + s.id() + "/suspend", "", s.token()).status()).isEqualTo(200);
        } finally {
            first.stop();
        }
        try (TestApp next = TestApp.start("runsc", Map.of("POOL_SIZE", "0"), dataDir)) {
            assertThat(state(next, s)).isEqualTo("suspended");
            assertKept(next.execute(s, CHECK, null));
        } finally {
            TestApp.discardWorkspaces(dataDir);
        }
    }

    @Test
    void past_the_time_kept_a_suspended_session_gives_up_its_variables_and_keeps_its_files() throws Exception {
        try (TestApp app = TestApp.start("runsc", Map.of("POOL_SIZE", "0", "SUSPENDED_TTL", "1s", "REAP_INTERVAL", "200ms"))) {
            TestApp.SessionRef s = app.createSession();
            app.execute(s, KEEP, null);
            suspend(app, s);
            waitUntil(() -> checkpoints(app, s) == 0, Duration.ofSeconds(30));
            assertLost(app, s, "longer than");
        }
    }

    @Test
    void over_the_disk_budget_the_longest_suspended_give_up_their_variables_first() throws Exception {
        // a session holding a million-element list checkpoints to ~5 MiB: the budget holds one, not two
        try (TestApp app = TestApp.start("runsc", Map.of("POOL_SIZE", "0", "SUSPEND_DISK", "7m"))) {
            TestApp.SessionRef older = app.createSession();
            TestApp.SessionRef newer = app.createSession();
            app.execute(older, KEEP + "\nbig = list(range(1_000_000))", null);
            app.execute(newer, KEEP + "\nbig = list(range(1_000_000))", null);
            suspend(app, older);
            assertThat(checkpoints(app, older)).as("within the budget alone").isEqualTo(1);
            suspend(app, newer);
            assertThat(checkpoints(app, older)).isZero();
            assertThat(checkpoints(app, newer)).isEqualTo(1);
            assertLost(app, older, "disk");
            assertKept(app.execute(newer, CHECK, null));
        }
    }

    @Test
    void a_damaged_checkpoint_leaves_files_and_history_and_the_next_cell_starts_fresh_and_says_so() throws Exception {
        try (TestApp app = TestApp.start("runsc", Map.of("POOL_SIZE", "0"))) {
            TestApp.SessionRef s = app.createSession();
            app.execute(s, KEEP, null);
            suspend(app, s);
            try (Stream<Path> files = Files.walk(suspendedDir(app, s))) {
                for (Path image : files.filter(f -> f.getFileName().toString().endsWith(".img")).toList()) {
                    byte[] junk = new byte[(int) Math.min(Files.size(image), 1 << 20)];
                    java.util.Arrays.fill(junk, (byte) 0x5a);
                    Files.write(image, junk); // the same name, other content: a damaged image
                }
            }
            assertLost(app, s, "could not be brought back");
        }
    }

    @Test
    void a_missing_checkpoint_is_said_the_same_way() throws Exception {
        try (TestApp app = TestApp.start("runsc", Map.of("POOL_SIZE", "0"))) {
            TestApp.SessionRef s = app.createSession();
            app.execute(s, KEEP, null);
            suspend(app, s);
            try (Stream<Path> dirs = Files.list(suspendedDir(app, s))) {
                for (Path d : dirs.filter(Files::isDirectory).toList()) {
                    dev.codeinterp.server.files.Trees.delete(d);
                }
            }
            assertLost(app, s, "missing");
        }
    }

    private static void suspend(TestApp app, TestApp.SessionRef s) {
        TestApp.Response r = app.post("/api/v1/sessions/" + s.id() + "/suspend", "", s.token());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
    }

    /** The variables came back: the interpreter was restored, not replaced. */
    private static void assertKept(JsonObject after) {
        assertThat(after.string("stdout")).isEqualTo("['f.txt']\n");
        assertThat(after.objectList("results").get(0).string("text/plain")).isEqualTo("42");
        assertThat(after.has("restarted")).isFalse();
    }

    /** Files and history stayed, the variables did not, and the cell that found out says why. */
    private static void assertLost(TestApp app, TestApp.SessionRef s, String why) {
        JsonObject after = app.execute(s, "import os\nprint(sorted(os.listdir('.')))\n'x' in globals()", null);
        assertThat(after.string("stdout")).isEqualTo("['f.txt']\n");
        assertThat(after.objectList("results").get(0).string("text/plain")).isEqualTo("False");
        assertThat(after.string("restarted")).contains(why).contains("files are kept");
        assertThat(app.get("/api/v1/sessions/" + s.id() + "/events", s.token()).body()).contains("x = 41");
    }

    private static String state(TestApp app, TestApp.SessionRef s) {
        return app.get("/api/v1/sessions/" + s.id(), s.token()).json().string("state");
    }

    private static Path suspendedDir(TestApp app, TestApp.SessionRef s) {
        return app.dataDir.resolve("suspended").resolve(s.id());
    }

    /** Checkpoints kept on disk for the session. */
    private static long checkpoints(TestApp app, TestApp.SessionRef s) {
        try (Stream<Path> dirs = Files.list(suspendedDir(app, s))) {
            return dirs.filter(Files::isDirectory).count();
        } catch (IOException e) {
            return 0;
        }
    }

    private static void waitUntil(BooleanSupplier condition, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited " + within).isLessThan(deadline);
            Thread.sleep(100);
        }
    }
}
