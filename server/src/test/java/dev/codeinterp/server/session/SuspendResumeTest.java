package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On gVisor, a session suspended to disk holds no container and no memory, and its next use brings
 * it back with its variables and files; the stream says how long that took.
 */
class SuspendResumeTest {
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
    void a_suspended_session_holds_no_container_and_comes_back_with_its_variables_and_files() throws InterruptedException {
        TestApp.SessionRef s = app.createSession();
        app.execute(s, "import random\nx = [i * i for i in range(100000)]\nopen('f.txt', 'w').write('kept')", null);
        assertThat(app.get("/api/v1/sessions/" + s.id(), s.token()).json().string("state")).isEqualTo("running");
        long containers = ours();

        TestApp.Response suspended = app.post("/api/v1/sessions/" + s.id() + "/suspend", "", s.token());
        assertThat(suspended.status()).as(suspended.body()).isEqualTo(200);
        assertThat(suspended.json().string("state")).isEqualTo("suspended");
        assertThat(app.get("/api/v1/sessions/" + s.id(), s.token()).json().string("state")).as("asking does not resume it")
                .isEqualTo("suspended");
        long deadline = System.nanoTime() + 10_000_000_000L; // removal runs in the background
        while (ours() != containers - 1 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(ours()).as("its container is gone").isEqualTo(containers - 1);

        JsonObject after = app.execute(s, "import os\nprint(sorted(os.listdir('.')))\nlen(x), x[-1]", null);
        assertThat(after.string("stdout")).isEqualTo("['f.txt']\n");
        assertThat(after.objectList("results").get(0).string("text/plain")).isEqualTo("(100000, 9999800001)");
        assertThat(after.has("restarted")).isFalse();
        assertThat(app.get("/api/v1/sessions/" + s.id(), s.token()).json().string("state")).isEqualTo("running");
        String history = app.get("/api/v1/sessions/" + s.id() + "/events", s.token()).body();
        assertThat(history).contains("\"type\":\"resumed\"").contains("\"duration_ms\":");

        // unchanged since its last suspension: the same state written and restored again
        for (int round = 0; round < 2; round++) {
            assertThat(app.post("/api/v1/sessions/" + s.id() + "/suspend", "", s.token()).status()).isEqualTo(200);
            JsonObject again = app.execute(s, "len(x)", null);
            assertThat(again.has("restarted")).as(again.toString()).isFalse();
            assertThat(again.objectList("results").get(0).string("text/plain")).isEqualTo("100000");
        }
    }

    @Test
    void a_socket_left_open_while_its_session_was_suspended_brings_it_back_with_its_next_cell() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
            ws.send(new ClientMessage.Hello(s.token(), 0));
            assertThat(ws.next(10_000)).isInstanceOf(ServerMessage.Welcome.class);
            ws.send(new ClientMessage.Execute("x = 41", null));
            untilFinished(ws);
            assertThat(app.post("/api/v1/sessions/" + s.id() + "/suspend", "", s.token()).status()).isEqualTo(200);

            ws.send(new ClientMessage.Execute("x + 1", null));
            List<Event> seen = untilFinished(ws);
            assertThat(seen).anyMatch(Event.Resumed.class::isInstance);
            assertThat(seen).anyMatch(e -> e instanceof Event.ExecuteResult r && "42".equals(r.data().get("text/plain")));
        }
    }

    /** The events the socket delivers until a cell's {@code finished}. */
    private static List<Event> untilFinished(WsClient ws) throws InterruptedException {
        List<Event> seen = new ArrayList<>();
        while (seen.isEmpty() || !(seen.get(seen.size() - 1) instanceof Event.Finished)) {
            ServerMessage m = ws.next(30_000);
            assertThat(m).as("a frame within 30 s").isNotNull();
            if (m instanceof ServerMessage.EventFrame f) {
                seen.add(f.event().event());
            }
        }
        return seen;
    }

    @Test
    void a_session_is_not_suspended_in_the_middle_of_a_cell() throws Exception {
        TestApp.SessionRef s = app.createSession();
        Thread cell = new Thread(() -> app.execute(s, "import time; time.sleep(3)", null));
        cell.start();
        Thread.sleep(800);
        TestApp.Response refused = app.post("/api/v1/sessions/" + s.id() + "/suspend", "", s.token());
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json().string("error")).contains("waiting or running");
        cell.join();
        assertThat(app.post("/api/v1/sessions/" + s.id() + "/suspend", "", s.token()).status()).isEqualTo(200);
    }

    @Test
    void another_sessions_token_cannot_suspend_or_see_it() {
        TestApp.SessionRef mine = app.createSession();
        TestApp.SessionRef theirs = app.createSession();
        assertThat(app.post("/api/v1/sessions/" + mine.id() + "/suspend", "", theirs.token()).status()).isEqualTo(404);
        assertThat(app.get("/api/v1/sessions/" + mine.id(), theirs.token()).status()).isEqualTo(404);
        assertThat(app.get("/api/v1/sessions/" + mine.id(), mine.token()).json().string("state")).isEqualTo("running");
    }

    private static long ours() {
        return app.main.backend().managedContainers().stream()
                .filter(c -> app.main.backend().deploymentId().equals(c.getLabels().get("dev.codeinterp.deployment"))).count();
    }
}
