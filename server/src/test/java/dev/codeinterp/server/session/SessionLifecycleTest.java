package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Queueing, interrupting, restarting and reaping sessions; and a server with no Docker engine. */
class SessionLifecycleTest {

    private static SessionEvent nextEvent(WsClient ws) throws InterruptedException {
        while (true) {
            if (ws.next(30_000) instanceof ServerMessage.EventFrame f) {
                return f.event();
            }
        }
    }

    @Test
    void cells_sent_together_run_one_at_a_time_in_order() throws Exception {
        TestApp app = TestApp.shared("runc");
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
            ws.send(new ClientMessage.Hello(s.token(), 0));
            ws.next(5000);
            ws.send(new ClientMessage.Execute("import time\ntime.sleep(0.3)\nprint('first')", null));
            ws.send(new ClientMessage.Execute("print('second')", null));
            ws.send(new ClientMessage.Execute("print('third')", null));
            List<String> order = new ArrayList<>();
            int finished = 0;
            while (finished < 3) {
                SessionEvent e = nextEvent(ws);
                if (e.event() instanceof Event.Stream st) {
                    order.add(st.text().trim());
                }
                if (e.event() instanceof Event.Finished) {
                    finished++;
                }
            }
            assertThat(order).containsExactly("first", "second", "third");
        }
    }

    @Test
    void interrupt_stops_an_endless_loop_and_keeps_the_state() throws Exception {
        TestApp app = TestApp.shared("runc");
        TestApp.SessionRef s = app.createSession();
        app.execute(s, "kept = 'yes'", null);
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
            ws.send(new ClientMessage.Hello(s.token(), Long.MAX_VALUE));
            ws.next(5000);
            ws.send(new ClientMessage.Execute("while True: pass", null));
            while (!(nextEvent(ws).event() instanceof Event.Started)) {
                // wait for the loop to be running
            }
            ws.send(new ClientMessage.Interrupt());
            Event.Finished finished = null;
            String ename = null;
            while (finished == null) {
                Event e = nextEvent(ws).event();
                if (e instanceof Event.Error err) {
                    ename = err.ename();
                }
                if (e instanceof Event.Finished f) {
                    finished = f;
                }
            }
            assertThat(finished.status()).isEqualTo(Status.INTERRUPTED);
            assertThat(ename).isEqualTo("KeyboardInterrupt");
        }
        assertThat(app.execute(s, "kept", null).objectList("results").get(0).string("text/plain")).isEqualTo("'yes'");
    }

    @Test
    void restart_gives_a_fresh_interpreter_and_says_so() throws Exception {
        TestApp app = TestApp.shared("runc");
        TestApp.SessionRef s = app.createSession();
        app.execute(s, "gone = 1", null);
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
            ws.send(new ClientMessage.Hello(s.token(), Long.MAX_VALUE));
            ws.next(5000);
            ws.send(new ClientMessage.Restart());
            assertThat(nextEvent(ws).event()).isInstanceOf(Event.Restarted.class);
        }
        JsonObject r = app.execute(s, "gone", null);
        assertThat(r.object("error").string("name")).isEqualTo("NameError");
    }

    @Test
    void an_idle_session_is_reaped_and_its_sandbox_removed() throws Exception {
        try (TestApp app = TestApp.start("runc", Map.of("IDLE_TTL", "1s", "REAP_INTERVAL", "200ms", "POOL_SIZE", "0"))) {
            TestApp.SessionRef s = app.createSession();
            app.execute(s, "1", null);
            assertThat(ourContainers(app)).isEqualTo(1);
            long deadline = System.currentTimeMillis() + 15_000;
            while (app.main.sessions().liveCount() > 0 && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertThat(app.main.sessions().liveCount()).isZero();
            assertThat(app.post("/api/v1/sessions/" + s.id() + "/execute", "{\"code\":\"1\"}", s.token()).status()).isEqualTo(404);
            while (ourContainers(app) > 0 && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertThat(ourContainers(app)).isZero();
        }
    }

    private static long ourContainers(TestApp app) {
        var backend = app.main.backend();
        return backend.managedContainers().stream()
                .filter(c -> backend.instanceId().equals(c.getLabels().get(dev.codeinterp.server.sandbox.DockerSandboxBackend.LABEL_INSTANCE)))
                .count();
    }

    @Test
    void without_a_docker_engine_the_server_starts_and_says_why_code_cannot_run() {
        try (TestApp app = TestApp.start("runc", Map.of("DOCKER_HOST", "unix:///nonexistent/docker.sock"))) {
            JsonObject health = app.get("/healthz", null).json();
            assertThat(health.string("status")).isEqualTo("degraded");
            assertThat(health.optBoolean("server_mode", true)).isFalse();
            assertThat(health.object("docker").string("problem")).contains("no Docker engine");
            TestApp.Response r = app.post("/api/v1/sessions", "", null);
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.json().string("error")).contains("sandbox");
        }
    }
}
