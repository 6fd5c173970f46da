package dev.codeinterp.server.bench;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ./bench-load.sh packages}: one package installed in SESSIONS fresh sessions one after the
 * other, against a server with an empty package cache: the first install is cold (the fetch step
 * downloads), every later one is served by the cache. Prints the {@code install} events' durations
 * and each request's wall time. Figures only. PACKAGE (default {@code is-odd}) and
 * PACKAGE_LANGUAGE (default javascript; npm is what this machine reaches) choose the package.
 */
final class PackagesScenario {
    private final String url;
    private final String language;
    private final String name;
    private final int sessions;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    PackagesScenario(String url, Map<String, String> env) {
        this.url = url;
        this.language = env.getOrDefault("PACKAGE_LANGUAGE", "javascript");
        this.name = env.getOrDefault("PACKAGE", "is-odd");
        this.sessions = Integer.parseInt(env.getOrDefault("PACKAGE_SESSIONS", "5"));
    }

    void run() throws Exception {
        String code = language.equals("javascript") ? "typeof require('" + name.replaceAll("@[^@/]*$", "") + "')"
                : "import importlib.metadata as m; m.version('" + name.replaceAll("==.*", "") + "')";
        System.out.printf("# packages: %s %s in %d fresh sessions, one after the other (empty cache at start)%n", language, name, sessions);
        List<Long> cached = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            JsonObject session = JsonObject.parse(post("/api/v1/sessions", "", null).body());
            String id = session.string("id");
            String token = session.string("token");
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("code", code);
            body.put("language", language);
            body.put("packages", List.of(name));
            long start = System.nanoTime();
            HttpResponse<String> answer = post("/api/v1/sessions/" + id + "/execute", Json.write(body), token);
            long wallMs = (System.nanoTime() - start) / 1_000_000;
            JsonObject install = null;
            for (JsonObject e : JsonObject.parse(get("/api/v1/sessions/" + id + "/events", token).body()).objectList("events")) {
                if (e.string("type").equals("install")) {
                    install = e;
                }
            }
            if (answer.statusCode() != 200 || install == null) {
                System.out.printf("!! session %d: %d %s%n", i + 1, answer.statusCode(), answer.body());
            } else {
                boolean hit = install.optBoolean("cached", false);
                long ms = install.integer("duration_ms");
                if (hit) {
                    cached.add(ms);
                }
                System.out.printf("  session %d: install %5d ms (%s), whole request %5d ms, status %s%n", i + 1, ms,
                        hit ? "cached" : "cold: fetched", wallMs, JsonObject.parse(answer.body()).string("status"));
            }
            delete("/api/v1/sessions/" + id, token);
        }
        if (!cached.isEmpty()) {
            System.out.printf("  cached installs: median %d ms, max %d ms%n",
                    cached.stream().sorted().toList().get(cached.size() / 2), cached.stream().mapToLong(Long::longValue).max().orElse(0));
        }
    }

    private HttpResponse<String> post(String path, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofMinutes(5))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path, String token) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url + path)).header("Authorization", "Bearer " + token).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private void delete(String path, String token) throws Exception {
        http.send(HttpRequest.newBuilder(URI.create(url + path)).header("Authorization", "Bearer " + token).DELETE().build(),
                HttpResponse.BodyHandlers.discarding());
    }
}
