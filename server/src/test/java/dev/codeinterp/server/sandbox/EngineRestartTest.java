package dev.codeinterp.server.sandbox;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Docker engine restarted under open sessions (runc and runsc at once): every running cell
 * ends, {@code /healthz} reports the outage and recovers by itself, and without a server restart
 * old sessions run again on fresh interpreters and new sessions are created. Restarts dockerd, so
 * it runs alone, in its own surefire execution after every other server test (server/pom.xml).
 */
@Tag("engine-restart")
class EngineRestartTest {

    @Test
    void sessions_survive_a_restart_of_the_docker_engine_without_restarting_the_server() throws Exception {
        try (TestApp runc = TestApp.start("runc", Map.of("POOL_SIZE", "1"));
             TestApp runsc = TestApp.start("runsc", Map.of("POOL_SIZE", "1"))) {
            List<TestApp> apps = List.of(runc, runsc);
            List<TestApp.SessionRef> busy = new ArrayList<>();
            List<TestApp.SessionRef> idle = new ArrayList<>();
            List<WsClient> sockets = new ArrayList<>();
            for (TestApp app : apps) {
                TestApp.SessionRef b = app.createSession();
                TestApp.SessionRef i = app.createSession();
                app.execute(i, "kept = 1", null);
                busy.add(b);
                idle.add(i);
                WsClient ws = WsClient.connect(app.wsUri(b.id()), null);
                ws.send(new ClientMessage.Hello(b.token(), Long.MAX_VALUE));
                assertThat(ws.next(5000)).isInstanceOf(ServerMessage.Welcome.class);
                ws.send(new ClientMessage.Execute("import time\nprint('running', flush=True)\ntime.sleep(120)", null));
                sockets.add(ws);
            }
            for (WsClient ws : sockets) {
                awaitText(ws, "running");
            }

            List<String> healthSeen = new CopyOnWriteArrayList<>();
            Thread watcher = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    try {
                        healthSeen.add(runc.get("/healthz", null).json().string("status"));
                        Thread.sleep(250);
                    } catch (InterruptedException e) {
                        return;
                    } catch (RuntimeException ignored) {
                        // keep watching
                    }
                }
            });
            watcher.start();
            Process restart = new ProcessBuilder("bash", Path.of("..", "scripts", "restart-dockerd.sh").toString())
                    .inheritIO().start();
            assertThat(restart.waitFor()).as("dockerd restarted").isZero();

            for (WsClient ws : sockets) {
                Event.Finished f = awaitFinished(ws, 60_000);
                assertThat(f.status().wire()).isIn("error", "interrupted");
                ws.close();
            }
            long deadline = System.currentTimeMillis() + 60_000;
            while (!"ok".equals(last(healthSeen)) && System.currentTimeMillis() < deadline) {
                Thread.sleep(250);
            }
            watcher.interrupt();
            watcher.join();
            assertThat(healthSeen).as("the outage was reported").contains("degraded");
            assertThat(last(healthSeen)).as("and healed by itself").isEqualTo("ok");

            for (int k = 0; k < apps.size(); k++) {
                TestApp app = apps.get(k);
                JsonObject again = app.execute(idle.get(k), "print('back')", 60.0);
                assertThat(again.string("stdout")).as(app.settings.runtime() + ": " + again).isEqualTo("back\n");
                TestApp.SessionRef fresh = app.createSession();
                assertThat(app.execute(fresh, "print(6 * 7)", null).string("stdout")).isEqualTo("42\n");
                for (TestApp.SessionRef s : List.of(busy.get(k), idle.get(k), fresh)) {
                    TestApp.assertOneFinishedPerCell(app.history(s));
                }
            }
        }
    }

    private static String last(List<String> seen) {
        return seen.isEmpty() ? null : seen.get(seen.size() - 1);
    }

    private static void awaitText(WsClient ws, String text) throws InterruptedException {
        while (true) {
            ServerMessage m = ws.next(60_000);
            if (m instanceof ServerMessage.EventFrame f && f.event().event() instanceof Event.Stream s && s.text().contains(text)) {
                return;
            }
            if (m == null) {
                throw new AssertionError("no '" + text + "' within 60 s");
            }
        }
    }

    private static Event.Finished awaitFinished(WsClient ws, long withinMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + withinMs;
        while (System.currentTimeMillis() < deadline) {
            ServerMessage m = ws.next(Math.max(1, deadline - System.currentTimeMillis()));
            if (m instanceof ServerMessage.EventFrame f && f.event().event() instanceof Event.Finished fin) {
                return fin;
            }
        }
        throw new AssertionError("the running cell did not end within " + withinMs + " ms of the engine's restart");
    }
}
