package dev.codeinterp.server.session;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On gVisor, {@code POST /api/v1/sessions/{id}/fork} makes a second session with the first one's
 * variables, files and history; from then on the two go on independently.
 */
class ForkTest {
    private static TestApp app;

    @BeforeAll
    static void start() {
        app = TestApp.start("runsc", Map.of("POOL_SIZE", "0"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void a_fork_has_the_variables_files_and_history_so_far_and_the_two_go_on_independently() {
        TestApp.SessionRef source = app.createSession();
        app.execute(source, "x = [i * i for i in range(100000)]\nopen('f.txt', 'w').write('before the fork')", null);

        TestApp.Response forked = app.post("/api/v1/sessions/" + source.id() + "/fork", "", source.token());
        assertThat(forked.status()).as(forked.body()).isEqualTo(201);
        assertThat(forked.json().string("runtime")).isEqualTo("runsc");
        TestApp.SessionRef fork = new TestApp.SessionRef(forked.json().string("id"), forked.json().string("token"));
        assertThat(fork.id()).isNotEqualTo(source.id());
        assertThat(fork.token()).isNotEqualTo(source.token());

        JsonObject inFork = app.execute(fork, "x.append(-1)\nopen('g.txt', 'w').write('fork only')\n"
                + "import os\nprint(sorted(os.listdir('.')), open('f.txt').read())\nlen(x), x[-2]", null);
        assertThat(inFork.has("restarted")).as(inFork.toString()).isFalse();
        assertThat(inFork.string("stdout")).isEqualTo("['f.txt', 'g.txt'] before the fork\n");
        assertThat(inFork.objectList("results").get(0).string("text/plain")).isEqualTo("(100001, 9999800001)");

        JsonObject inSource = app.execute(source, "import os\nprint(sorted(os.listdir('.')))\nlen(x)", null);
        assertThat(inSource.string("stdout")).as("the fork's file is the fork's").isEqualTo("['f.txt']\n");
        assertThat(inSource.objectList("results").get(0).string("text/plain")).as("the fork's change is the fork's").isEqualTo("100000");

        JsonObject history = app.get("/api/v1/sessions/" + fork.id() + "/events", fork.token()).json();
        List<String> code = history.objectList("events").stream().filter(e -> e.string("type").equals("queued"))
                .map(e -> e.string("code")).toList();
        assertThat(code).as("its history: the source's cell, then its own").hasSize(2);
        assertThat(code.get(0)).startsWith("x = [i * i");
        TestApp.assertOneFinishedPerCell(history);
        assertThat(history.objectList("events").stream().filter(e -> e.string("type").equals("started"))
                .map(e -> e.integer("execution_count")).toList()).as("it counts on from the source's cells").containsExactly(1L, 2L);
        assertThat(app.get("/api/v1/sessions/" + source.id() + "/events", source.token()).body())
                .as("the source's history is its own").doesNotContain("fork only");
        close(source);
        close(fork);
    }

    @Test
    void the_same_state_forks_twice_and_a_fork_forks_again() {
        TestApp.SessionRef source = app.createSession();
        app.execute(source, "n = 7", null);
        TestApp.SessionRef first = fork(source);
        TestApp.SessionRef second = fork(source); // unchanged since the first: the engine must not take it as a copy it holds
        assertThat(value(first, "n")).isEqualTo("7");
        assertThat(value(second, "n")).isEqualTo("7");
        close(source);
        close(second);

        app.execute(first, "n += 1", null);
        TestApp.SessionRef grandchild = fork(first);
        assertThat(value(grandchild, "n")).isEqualTo("8");
        close(first);
        close(grandchild);
    }

    @Test
    void a_fork_counts_against_its_clients_quota_and_one_past_it_is_refused_at_once() {
        try (TestApp small = TestApp.start("runsc", Map.of("POOL_SIZE", "0", "MAX_SESSIONS_PER_CLIENT", "3"))) {
            TestApp.SessionRef source = small.createSession();
            String fork = "/api/v1/sessions/" + source.id() + "/fork";
            assertThat(small.post(fork, "", source.token()).status()).isEqualTo(201);
            TestApp.Response second = small.post(fork, "", source.token());
            assertThat(second.status()).isEqualTo(201);
            TestApp.Response refused = small.post(fork, "", source.token());
            assertThat(refused.status()).as(refused.body()).isEqualTo(429);
            assertThat(refused.body()).contains("3 sessions open");
            small.delete("/api/v1/sessions/" + second.json().string("id"), second.json().string("token"));
            TestApp.Response again = small.post(fork, "", source.token());
            assertThat(again.status()).as("a place freed is a place to fork into: " + again.body()).isEqualTo(201);
        }
    }

    @Test
    void a_session_with_a_cell_running_is_not_forked_and_is_told_why() throws Exception {
        TestApp.SessionRef source = app.createSession();
        app.execute(source, "import time", null);
        CompletableFuture<JsonObject> slow = CompletableFuture.supplyAsync(() -> app.execute(source, "time.sleep(4)\n'done'", null));
        Thread.sleep(1500);
        TestApp.Response busy = app.post("/api/v1/sessions/" + source.id() + "/fork", "", source.token());
        assertThat(busy.status()).as(busy.body()).isEqualTo(409);
        assertThat(busy.body()).contains("waiting or running").contains("fork");
        assertThat(slow.get().objectList("results").get(0).string("text/plain")).as("the cell was not touched").isEqualTo("'done'");
        close(source);
    }

    @Test
    void another_sessions_token_forks_nothing() {
        TestApp.SessionRef mine = app.createSession();
        TestApp.SessionRef theirs = app.createSession();
        assertThat(app.post("/api/v1/sessions/" + theirs.id() + "/fork", "", mine.token()).status()).isEqualTo(404);
        assertThat(app.post("/api/v1/sessions/" + theirs.id() + "/fork", "", null).status()).isEqualTo(404);
        close(mine);
        close(theirs);
    }

    private static TestApp.SessionRef fork(TestApp.SessionRef s) {
        TestApp.Response r = app.post("/api/v1/sessions/" + s.id() + "/fork", "", s.token());
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return new TestApp.SessionRef(r.json().string("id"), r.json().string("token"));
    }

    private static String value(TestApp.SessionRef s, String expression) {
        JsonObject r = app.execute(s, expression, null);
        assertThat(r.has("restarted")).as(r.toString()).isFalse();
        return r.objectList("results").get(0).string("text/plain");
    }

    private static void close(TestApp.SessionRef s) {
        app.delete("/api/v1/sessions/" + s.id(), s.token());
    }
}
