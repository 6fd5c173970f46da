package dev.codeinterp.server.session;

import com.github.dockerjava.api.model.Container;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.Main;
import dev.codeinterp.server.sandbox.DockerSandboxBackend;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server killed with SIGKILL mid-cell: the next process finds the cell "running", marks it
 * interrupted, removes the dead process's containers by label, and the session carries on.
 * We chose removal over re-attaching: a runner's stdin closes with its attach stream, so an
 * interpreter cannot outlive the process that drove it.
 */
class CrashRecoveryTest {

    @Test
    void after_a_crash_no_cell_stays_running_and_orphaned_sandboxes_are_removed() throws Exception {
        Path dataDir = Files.createTempDirectory("codeinterp-crash");
        int port = freePort();
        Process server = startServerProcess(dataDir, port);
        TestApp.SessionRef s;
        try {
            waitForHealth(port);
            s = createSession(port);
            post(port, "/api/v1/sessions/" + s.id() + "/execute", "{\"code\":\"print('before the crash')\"}", s.token());
            Thread longCell = new Thread(() -> {
                try {
                    post(port, "/api/v1/sessions/" + s.id() + "/execute", "{\"code\":\"import time\\nprint('work' + 'ing')\\ntime.sleep(600)\"}", s.token());
                } catch (Exception ignored) {
                    // the server dies under this request
                }
            });
            longCell.setDaemon(true);
            longCell.start();
            // the marker is built at run time, so the queued event's code does not match it
            waitUntil(() -> get(port, "/api/v1/sessions/" + s.id() + "/events", s.token()).contains("working"));
        } finally {
            server.destroyForcibly().waitFor();
        }

        List<String> bystanders = sandboxesOf(TestApp.shared("runc"));
        assertThat(bystanders).isNotEmpty();
        try (TestApp next = TestApp.start("runc", Map.of(), dataDir)) {
            DockerSandboxBackend backend = next.main.backend();
            List<Container> leftovers = backend.managedContainers().stream()
                    .filter(c -> backend.deploymentId().equals(c.getLabels().get(DockerSandboxBackend.LABEL_DEPLOYMENT)))
                    .filter(c -> !backend.instanceId().equals(c.getLabels().get(DockerSandboxBackend.LABEL_INSTANCE)))
                    .toList();
            assertThat(leftovers).as("containers of the killed process").isEmpty();
            assertThat(next.main.backend().managedContainers().stream().map(Container::getId).toList())
                    .as("another deployment's sandboxes on the same engine are left alone").containsAll(bystanders);

            JsonObject history = next.get("/api/v1/sessions/" + s.id() + "/events", s.token()).json();
            List<JsonObject> events = history.objectList("events");
            assertThat(events).anySatisfy(e -> assertThat(e.optString("text", "")).isEqualTo("before the crash\n"));
            List<JsonObject> finished = events.stream().filter(e -> e.string("type").equals("finished")).toList();
            assertThat(finished).hasSize(2);
            assertThat(finished.get(1).string("status")).isEqualTo("interrupted");
            assertThat(events).anySatisfy(e -> assertThat(e.string("type")).isEqualTo("restarted"));
            for (int i = 0; i < events.size(); i++) {
                assertThat(events.get(i).integer("seq")).isEqualTo(i + 1);
            }

            JsonObject after = next.execute(s, "print('after the crash')", null);
            assertThat(after.string("stdout")).isEqualTo("after the crash\n");
        } finally {
            TestApp.discardWorkspaces(dataDir);
        }
    }

    private static List<String> sandboxesOf(TestApp app) throws InterruptedException {
        DockerSandboxBackend backend = app.main.backend();
        waitUntil(() -> app.main.pool().idleCount() > 0);
        return backend.managedContainers().stream()
                .filter(c -> backend.instanceId().equals(c.getLabels().get(DockerSandboxBackend.LABEL_INSTANCE)))
                .map(Container::getId).toList();
    }

    private static Process startServerProcess(Path dataDir, int port) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName());
        pb.environment().put("CODEINTERP_PORT", String.valueOf(port));
        pb.environment().put("CODEINTERP_HOST", "127.0.0.1");
        pb.environment().put("CODEINTERP_DATA_DIR", dataDir.toString());
        pb.environment().put("CODEINTERP_POOL_SIZE", "1");
        pb.redirectErrorStream(true);
        pb.redirectOutput(dataDir.resolve("server.log").toFile());
        return pb.start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static String post(int port, String path, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static String get(int port, String path, String token) {
        try {
            HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(10)).GET().build();
            return HTTP.send(r, HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            return "";
        }
    }

    private static TestApp.SessionRef createSession(int port) throws Exception {
        JsonObject created = JsonObject.parse(post(port, "/api/v1/sessions", "", null));
        return new TestApp.SessionRef(created.string("id"), created.string("token"));
    }

    private static void waitForHealth(int port) throws InterruptedException {
        waitUntil(() -> {
            try {
                HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz")).GET().build();
                return HTTP.send(r, HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
            } catch (Exception e) {
                return false;
            }
        });
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 60 s");
            }
            Thread.sleep(100);
        }
    }
}
