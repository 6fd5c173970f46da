package dev.codeinterp.server.session;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.store.TestStores;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The PostgreSQL under a running server stops for 10 s and comes back: new cells are refused plainly
 * meanwhile, a cell that was printing waits and loses nothing, and the server carries on by itself.
 * (Only in test.sh's PostgreSQL pass: it stops and starts that server with scripts/postgres.sh.)
 */
class StoreOutageTest {
    @Test
    @Timeout(240)
    void a_database_that_goes_away_for_ten_seconds_fails_new_cells_clearly_and_the_server_recovers_by_itself() throws Exception {
        assumeTrue(TestStores.postgres(), "needs the PostgreSQL of test.sh's second pass");
        Path cluster = Path.of(System.getenv("TEST_POSTGRES_PASSWORD_FILE")).getParent();
        try (TestApp app = TestApp.start("runc", Map.of())) {
            TestApp.SessionRef s = app.createSession();
            TestApp.SessionRef other = app.createSession();
            assertThat(app.execute(s, "n = 1; n", null).string("status")).isEqualTo("ok");
            // prints a line every second for 16 s: the outage falls in the middle of it
            CompletableFuture<JsonObject> printing = CompletableFuture.supplyAsync(() -> app.execute(s,
                    "import time\nfor i in range(16):\n    print(i, flush=True)\n    time.sleep(1)", 60.0));
            Thread.sleep(2000);
            postgres("halt", cluster);
            try {
                Thread.sleep(1000);
                TestApp.Response refused = app.post("/api/v1/sessions/" + other.id() + "/execute", "{\"code\":\"1 + 1\"}", other.token());
                assertThat(refused.status()).as(refused.body()).isEqualTo(503);
                assertThat(refused.json().string("error")).contains("cannot be stored right now");
                assertThat(refused.headers()).containsKey("retry-after");
                Thread.sleep(9000);
            } finally {
                postgres("resume", cluster);
            }
            JsonObject printed = printing.get();
            assertThat(printed.string("status")).as(printed.asMap().toString()).isEqualTo("ok");
            assertThat(printed.string("stdout").lines().toList()).as("nothing printed meanwhile was lost")
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 16).mapToObj(String::valueOf).toList());
            assertThat(app.execute(s, "n += 1; print(n)", null).string("stdout").strip()).as("the session kept its state").isEqualTo("2");
            JsonObject history = app.get("/api/v1/sessions/" + s.id() + "/events", s.token()).json();
            TestApp.assertOneFinishedPerCell(history);
            String stored = history.objectList("events").stream().filter(e -> e.string("type").equals("stream"))
                    .map(e -> e.string("text")).collect(java.util.stream.Collectors.joining());
            assertThat(stored).as("every line the cell printed is in the stored history").contains(printed.string("stdout"));
        }
    }

    private static void postgres(String command, Path cluster) throws Exception {
        Process p = new ProcessBuilder("bash", Path.of("..", "scripts", "postgres.sh").toString(), command, cluster.toString())
                .inheritIO().start();
        assertThat(p.waitFor()).as("postgres.sh " + command).isZero();
    }
}
