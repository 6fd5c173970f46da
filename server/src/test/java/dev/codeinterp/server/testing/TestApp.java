package dev.codeinterp.server.testing;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.Main;
import dev.codeinterp.server.config.AssistantSettings;
import dev.codeinterp.server.config.Settings;
import dev.codeinterp.server.files.Workspaces;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The real server on a free port, over the real Docker engine, with a throwaway data directory (and
 * store: see {@link dev.codeinterp.server.store.TestStores}).
 * One per runtime is shared by the test classes (starting sandboxes is the slow part).
 */
public final class TestApp implements AutoCloseable {
    private static final Map<String, TestApp> SHARED = new ConcurrentHashMap<>();

    public final Main main;
    public final Settings settings;
    public final Path dataDir;
    private boolean ownsDataDir;
    /** Every answer a test receives is checked against the OpenAPI document the server ships. */
    private static final DocumentedApi DOCUMENTED = DocumentedApi.shipped();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private TestApp(Settings settings, Path dataDir, AssistantSettings assistant) {
        this.settings = settings;
        this.dataDir = dataDir;
        this.main = (assistant == null ? new Main(settings) : new Main(settings, assistant)).start(settings);
    }

    /** The shared app of a runtime, started on first use and stopped when the test JVM exits. */
    public static TestApp shared(String runtime) {
        return SHARED.computeIfAbsent(runtime, r -> {
            TestApp app = start(r, Map.of());
            Runtime.getRuntime().addShutdownHook(new Thread(app::close));
            return app;
        });
    }

    /** A private app; {@code overrides} are CODEINTERP_* names without the prefix; a null {@code runtime} leaves it unset. */
    public static TestApp start(String runtime, Map<String, String> overrides) {
        try {
            Path dir = Files.createTempDirectory("codeinterp-test");
            TestApp app = start(runtime, overrides, dir);
            app.ownsDataDir = true;
            return app;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static TestApp start(String runtime, Map<String, String> overrides, Path dataDir) {
        return start(runtime, overrides, dataDir, null);
    }

    /** A private app whose assistant talks to {@code assistant}'s endpoint. */
    public static TestApp withAssistant(String runtime, AssistantSettings assistant) {
        try {
            TestApp app = start(runtime, Map.of(), Files.createTempDirectory("codeinterp-test"), assistant);
            app.ownsDataDir = true;
            return app;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static TestApp start(String runtime, Map<String, String> overrides, Path dataDir, AssistantSettings assistant) {
        Map<String, String> env = new HashMap<>();
        env.put("CODEINTERP_PORT", "0");
        env.put("CODEINTERP_HOST", "127.0.0.1");
        env.put("CODEINTERP_DATA_DIR", dataDir.toString());
        if (runtime != null) { // null: unset, as a user's first start has it (the server chooses)
            env.put("CODEINTERP_RUNTIME", runtime);
        }
        env.put("CODEINTERP_POOL_SIZE", "1");
        env.put("CODEINTERP_MEMORY", "512m");
        env.put("CODEINTERP_IMAGE", System.getenv().getOrDefault("CODEINTERP_IMAGE", "codeinterp-sandbox:latest"));
        // the store: SQLite's file in the data directory, or its own PostgreSQL database in test.sh's second pass
        dev.codeinterp.server.store.TestStores.environment(dataDir).forEach((k, v) -> env.put("CODEINTERP_" + k, v));
        overrides.forEach((k, v) -> env.put("CODEINTERP_" + k, v));
        return new TestApp(Settings.fromEnvironment(env), dataDir, assistant);
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + main.port() + path);
    }

    public String wsUri(String sessionId) {
        return "ws://127.0.0.1:" + main.port() + "/api/v1/sessions/" + sessionId + "/ws";
    }

    public Response post(String path, String body, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body == null ? "" : body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b.build());
    }

    public Response get(String path, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b.build());
    }

    public Response delete(String path, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).DELETE();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b.build());
    }

    /** Uploads {@code body} raw to a session's workspace. */
    public Response putFile(SessionRef s, String encodedName, byte[] body) {
        return send(HttpRequest.newBuilder(uri("/api/v1/sessions/" + s.id() + "/files/" + encodedName))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + s.token())
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    /** Any request, answering with the raw bytes (downloads). */
    public HttpResponse<byte[]> exchange(HttpRequest request) {
        try {
            HttpResponse<byte[]> r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            DOCUMENTED.check(request.method(), request.uri(), r.statusCode(), r.headers().map(), new String(r.body(), StandardCharsets.UTF_8));
            return r;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public HttpRequest.Builder request(String path, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(120));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    public Response send(HttpRequest request) {
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            DOCUMENTED.check(request.method(), request.uri(), r.statusCode(), r.headers().map(), r.body());
            return new Response(r.statusCode(), r.body(), r.headers().map());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One request written to the socket as is, answered raw: for a Host of our choosing or bytes no client would send. */
    public String raw(String request) {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", main.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs code one-shot through {@code POST /api/v1/execute}. */
    public JsonObject executeOnce(String code, Double timeoutSeconds) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", code);
        if (timeoutSeconds != null) {
            body.put("timeout", timeoutSeconds);
        }
        Response r = post("/api/v1/execute", Json.write(body), null);
        if (r.status() != 200) {
            throw new AssertionError("execute answered " + r.status() + ": " + r.body());
        }
        return r.json();
    }

    /** A session made through the API: its id and token. */
    public SessionRef createSession() {
        Response r = post("/api/v1/sessions", "", null);
        if (r.status() != 201) {
            throw new AssertionError("create session answered " + r.status() + ": " + r.body());
        }
        return new SessionRef(r.json().string("id"), r.json().string("token"));
    }

    public JsonObject execute(SessionRef s, String code, Double timeoutSeconds) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", code);
        if (timeoutSeconds != null) {
            body.put("timeout", timeoutSeconds);
        }
        Response r = post("/api/v1/sessions/" + s.id() + "/execute", Json.write(body), s.token());
        if (r.status() != 200) {
            throw new AssertionError("session execute answered " + r.status() + ": " + r.body());
        }
        return r.json();
    }

    /** The session's whole stored history, page after page (the API answers at most 5000 events a page). */
    public java.util.List<JsonObject> history(SessionRef s) {
        java.util.List<JsonObject> all = new java.util.ArrayList<>();
        while (true) {
            long after = all.isEmpty() ? 0 : all.get(all.size() - 1).integer("seq");
            Response r = get("/api/v1/sessions/" + s.id() + "/events?after=" + after, s.token());
            if (r.status() != 200) {
                throw new AssertionError("history answered " + r.status() + ": " + r.body());
            }
            java.util.List<JsonObject> page = r.json().objectList("events");
            if (page.isEmpty()) {
                return all;
            }
            all.addAll(page);
        }
    }

    /** Every cell a page of history queued ended in exactly one {@code finished}. */
    public static void assertOneFinishedPerCell(JsonObject history) {
        assertOneFinishedPerCell(history.objectList("events"));
    }

    /** Every cell {@code events} (e.g. a whole {@link #history}) queued ended in exactly one {@code finished}: nothing accepted was dropped or doubled. */
    public static void assertOneFinishedPerCell(java.util.List<JsonObject> events) {
        Map<String, Long> finished = events.stream()
                .filter(e -> e.string("type").equals("finished"))
                .collect(java.util.stream.Collectors.groupingBy(e -> e.string("execution_id"), java.util.stream.Collectors.counting()));
        long queued = events.stream().filter(e -> e.string("type").equals("queued")).count();
        org.assertj.core.api.Assertions.assertThat(finished).hasSize((int) queued);
        org.assertj.core.api.Assertions.assertThat(finished.values()).allMatch(n -> n == 1);
    }

    public record SessionRef(String id, String token) {
    }

    public record Response(int status, String body, Map<String, java.util.List<String>> headers) {
        public JsonObject json() {
            return JsonObject.parse(body);
        }
    }

    /** Stops the server as SIGTERM does: sessions' sandboxes stay running for the next server on this data dir. */
    public void stop() {
        main.close();
    }

    /** Stops the server for good: every session's sandbox is removed (and the data dir's workspaces, when it is the app's own). */
    @Override
    public void close() {
        main.closeRemovingSandboxes();
        if (ownsDataDir) {
            discardWorkspaces(dataDir);
        }
    }

    /** Sessions' workspaces stay mounted across a server's restarts; a test's data dir is done for good. */
    public static void discardWorkspaces(Path dataDir) {
        new Workspaces(dataDir.resolve("workspaces"), 0).retainOnly(Set.of());
    }
}
