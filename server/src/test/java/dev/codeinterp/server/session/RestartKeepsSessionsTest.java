package dev.codeinterp.server.session;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.Main;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.sandbox.DockerSandboxBackend;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server that stops (SIGTERM) or dies (SIGKILL) leaves its sessions' sandboxes running; the next
 * process on the same data directory adopts them: variables are kept, a cell running across the
 * restart goes on and ends once with every line it printed, and what could not be kept is said.
 */
class RestartKeepsSessionsTest {
    /** Prints 40 numbered lines over about 4 s: long enough to straddle a restart. */
    private static final String COUNTING = "import time\nfor i in range(40):\n    print('line', i, flush=True)\n    time.sleep(0.1)";
    private static final String ALL_LINES = IntStream.range(0, 40).mapToObj(i -> "line " + i + "\n").collect(Collectors.joining());
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @ParameterizedTest
    @ValueSource(strings = {"runc", "runsc"})
    void a_stopped_server_comes_back_with_every_variable_and_a_running_cell_ends_once_with_all_its_lines(String runtime)
            throws Exception {
        Path dataDir = Files.createTempDirectory("codeinterp-restart");
        TestApp.SessionRef s;
        String counting;
        TestApp first = TestApp.start(runtime, Map.of("POOL_SIZE", "0"), dataDir);
        try {
            s = first.createSession();
            first.execute(s, "x = 41\nopen('f.txt', 'w').write('kept')", null);
            counting = submitInBackground(first.uri("/api/v1/sessions/" + s.id() + "/execute"), s, COUNTING);
            waitUntil(() -> first.get("/api/v1/sessions/" + s.id() + "/events", s.token()).body().contains("line 3\\n"));
        } finally {
            first.stop();
        }
        try (TestApp next = TestApp.start(runtime, Map.of("POOL_SIZE", "0"), dataDir)) {
            assertTheCellEndedOnceWithEveryLine(next, s);
            JsonObject after = next.execute(s, "import os\nprint(sorted(os.listdir('.')))\nx + 1", null);
            assertThat(after.string("stdout")).isEqualTo("['f.txt']\n");
            assertThat(after.objectList("results").get(0).string("text/plain")).isEqualTo("42");
            assertThat(after.has("restarted")).as("the interpreter was kept").isFalse();
        } finally {
            TestApp.discardWorkspaces(dataDir);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"runc", "runsc"})
    void a_killed_server_comes_back_the_same(String runtime) throws Exception {
        Path dataDir = Files.createTempDirectory("codeinterp-kill");
        int port = freePort();
        Process server = startServerProcess(dataDir, port, runtime);
        TestApp.SessionRef s;
        try {
            waitUntil(() -> get(port, "/healthz", null).contains("\"available\":true"));
            JsonObject created = JsonObject.parse(post(port, "/api/v1/sessions", "", null));
            s = new TestApp.SessionRef(created.string("id"), created.string("token"));
            post(port, "/api/v1/sessions/" + s.id() + "/execute", "{\"code\":\"x = 41\"}", s.token());
            submitInBackground(URI.create("http://127.0.0.1:" + port + "/api/v1/sessions/" + s.id() + "/execute"), s, COUNTING);
            waitUntil(() -> get(port, "/api/v1/sessions/" + s.id() + "/events", s.token()).contains("line 3\\n"));
        } finally {
            server.destroyForcibly().waitFor();
        }
        try (TestApp next = TestApp.start(runtime, Map.of("POOL_SIZE", "0"), dataDir)) {
            assertTheCellEndedOnceWithEveryLine(next, s);
            assertThat(next.execute(s, "x + 1", null).objectList("results").get(0).string("text/plain")).isEqualTo("42");
            DockerSandboxBackend backend = next.main.backend();
            long others = backend.managedContainers().stream()
                    .filter(c -> backend.deploymentId().equals(c.getLabels().get(DockerSandboxBackend.LABEL_DEPLOYMENT)))
                    .filter(c -> !backend.instanceId().equals(c.getLabels().get(DockerSandboxBackend.LABEL_INSTANCE)))
                    .count();
            assertThat(others).as("the killed process's containers: only the adopted session's is left").isEqualTo(1);
        } finally {
            TestApp.discardWorkspaces(dataDir);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"runc"})
    void a_session_whose_sandbox_did_not_survive_says_so_in_its_next_cell_and_keeps_its_files(String runtime) throws Exception {
        Path dataDir = Files.createTempDirectory("codeinterp-gone");
        TestApp.SessionRef s;
        TestApp first = TestApp.start(runtime, Map.of("POOL_SIZE", "0"), dataDir);
        try {
            s = first.createSession();
            first.execute(s, "x = 41\nopen('f.txt', 'w').write('kept')", null);
        } finally {
            first.stop();
        }
        DockerSandboxBackend engine = TestApp.shared("runc").main.backend();
        engine.managedContainers().stream()
                .filter(c -> c.getLabels().get(DockerSandboxBackend.LABEL_DEPLOYMENT).equals(deploymentOf(dataDir)))
                .forEach(c -> engine.client().removeContainerCmd(c.getId()).withForce(true).exec());
        try (TestApp next = TestApp.start(runtime, Map.of("POOL_SIZE", "0"), dataDir)) {
            JsonObject after = next.execute(s, "print(open('f.txt').read())\nx", null);
            assertThat(after.string("stdout")).isEqualTo("kept\n");
            assertThat(after.object("error").string("name")).isEqualTo("NameError");
            assertThat(after.string("restarted")).contains("did not survive");
            JsonObject again = next.execute(s, "1", null);
            assertThat(again.has("restarted")).as("said once").isFalse();
        } finally {
            TestApp.discardWorkspaces(dataDir);
        }
    }

    private static void assertTheCellEndedOnceWithEveryLine(TestApp app, TestApp.SessionRef s) throws InterruptedException {
        waitUntil(() -> app.history(s).stream().filter(e -> e.string("type").equals("finished")).count() == 2);
        List<JsonObject> events = app.history(s);
        TestApp.assertOneFinishedPerCell(events);
        String counting = events.stream().filter(e -> e.string("type").equals("queued") && e.string("code").equals(COUNTING))
                .findFirst().orElseThrow().string("execution_id");
        String printed = events.stream().filter(e -> e.string("execution_id").equals(counting) && e.string("type").equals("stream"))
                .map(e -> e.string("text")).collect(Collectors.joining());
        assertThat(printed).as("every line once, in order").isEqualTo(ALL_LINES);
        JsonObject finished = events.stream().filter(e -> e.string("execution_id").equals(counting) && e.string("type").equals("finished"))
                .findFirst().orElseThrow();
        assertThat(finished.string("status")).isEqualTo("ok");
        assertThat(events).noneMatch(e -> e.string("type").equals("restarted"));
        for (int i = 0; i < events.size(); i++) {
            assertThat(events.get(i).integer("seq")).isEqualTo(i + 1);
        }
    }

    private static String deploymentOf(Path dataDir) {
        return Tokens.hash(dataDir.toAbsolutePath().normalize().toString()).substring(0, 16);
    }

    /** Sends a cell whose answer never comes to this caller (the server goes away under it). */
    private static String submitInBackground(URI execute, TestApp.SessionRef s, String code) {
        String body = "{\"code\":" + dev.codeinterp.model.json.Json.write(code) + "}";
        HTTP.sendAsync(HttpRequest.newBuilder(execute).header("Authorization", "Bearer " + s.token())
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.discarding());
        return code;
    }

    private static Process startServerProcess(Path dataDir, int port, String runtime) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName());
        pb.environment().put("CODEINTERP_PORT", String.valueOf(port));
        pb.environment().put("CODEINTERP_HOST", "127.0.0.1");
        pb.environment().put("CODEINTERP_DATA_DIR", dataDir.toString());
        // the same store as the in-process servers on this data dir: its SQLite file, or its PostgreSQL database
        dev.codeinterp.server.store.TestStores.environment(dataDir).forEach((k, v) -> pb.environment().put("CODEINTERP_" + k, v));
        pb.environment().put("CODEINTERP_RUNTIME", runtime);
        pb.environment().put("CODEINTERP_POOL_SIZE", "0");
        pb.environment().put("CODEINTERP_MEMORY", "512m");
        pb.redirectErrorStream(true);
        pb.redirectOutput(dataDir.resolve("server.log").toFile());
        return pb.start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String post(int port, String path, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static String get(int port, String path, String token) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10)).GET();
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            return "";
        }
    }

    private static void waitUntil(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 90 s");
            }
            Thread.sleep(100);
        }
    }
}
