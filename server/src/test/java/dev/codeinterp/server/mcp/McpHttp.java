package dev.codeinterp.server.mcp;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** A bare Streamable HTTP MCP client for tests: raw JSON-RPC over POST, answers read from JSON or SSE. */
public final class McpHttp {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final URI endpoint;
    private final String key;
    private final AtomicLong ids = new AtomicLong();
    public String sessionId;

    public McpHttp(URI endpoint, String key) {
        this.endpoint = endpoint;
        this.key = key;
    }

    /** One HTTP answer: its status, headers and the JSON-RPC messages in its body (several when streamed). */
    public record Answer(int status, Map<String, List<String>> headers, String body, List<JsonObject> messages) {
        public JsonObject last() {
            return messages.get(messages.size() - 1);
        }

        public String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }
    }

    public McpHttp initialize() {
        Answer a = request("initialize", Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(),
                "clientInfo", Map.of("name", "test", "version", "1")));
        if (a.status() != 200) {
            throw new AssertionError("initialize answered " + a.status() + ": " + a.body());
        }
        sessionId = a.header("Mcp-Session-Id");
        send(Json.write(Map.of("jsonrpc", "2.0", "method", "notifications/initialized")));
        return this;
    }

    public Answer request(String method, Map<String, Object> params) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("jsonrpc", "2.0");
        message.put("id", ids.incrementAndGet());
        message.put("method", method);
        message.put("params", params);
        return send(Json.write(message));
    }

    /** tools/call; the answer's last message is the JSON-RPC response. */
    public Answer call(String tool, Map<String, Object> arguments) {
        return request("tools/call", Map.of("name", tool, "arguments", arguments));
    }

    /** The result object of a successful tools/call. */
    public JsonObject result(String tool, Map<String, Object> arguments) {
        Answer a = call(tool, arguments);
        if (a.status() != 200 || !a.last().has("result")) {
            throw new AssertionError(tool + " answered " + a.status() + ": " + a.body());
        }
        return a.last().object("result");
    }

    /**
     * tools/call with a progress token, each message handed to {@code onMessage} as it arrives on
     * the stream (progress notifications while the code runs, the response last); answers the response.
     */
    public JsonObject callStreaming(String tool, Map<String, Object> arguments, java.util.function.Consumer<JsonObject> onMessage) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("jsonrpc", "2.0");
        message.put("id", ids.incrementAndGet());
        message.put("method", "tools/call");
        message.put("params", Map.of("name", tool, "arguments", arguments, "_meta", Map.of("progressToken", "stream-" + message.get("id"))));
        try {
            HttpResponse<java.util.stream.Stream<String>> r = HTTP.send(base().POST(HttpRequest.BodyPublishers.ofString(Json.write(message))).build(),
                    HttpResponse.BodyHandlers.ofLines());
            JsonObject last = null;
            for (String line : (Iterable<String>) r.body()::iterator) {
                if (line.startsWith("data:")) {
                    last = JsonObject.parse(line.substring(5).strip());
                    onMessage.accept(last);
                } else if (line.startsWith("{")) {
                    last = JsonObject.parse(line);
                    onMessage.accept(last);
                }
            }
            if (last == null) {
                throw new AssertionError(tool + " answered " + r.statusCode() + " with no message");
            }
            return last;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    Answer send(String body) {
        return exchange(base().POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    public Answer delete() {
        return exchange(base().DELETE().build());
    }

    public HttpRequest.Builder base() {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream");
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        if (sessionId != null) {
            b.header("Mcp-Session-Id", sessionId);
        }
        return b;
    }

    public static Answer exchange(HttpRequest request) {
        try {
            HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.headers().map(), r.body(), messages(r.body()));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static List<JsonObject> messages(String body) {
        List<JsonObject> out = new ArrayList<>();
        String trimmed = body == null ? "" : body.strip();
        if (trimmed.startsWith("{")) {
            out.add(JsonObject.parse(trimmed));
            return out;
        }
        for (String line : trimmed.split("\n")) {
            if (line.startsWith("data:")) {
                out.add(JsonObject.parse(line.substring(5).strip()));
            }
        }
        return out;
    }

    /** A tool result's text content, each part on its own line. */
    public static String text(JsonObject result) {
        StringBuilder out = new StringBuilder();
        for (JsonObject c : result.objectList("content")) {
            if (c.string("type").equals("text")) {
                out.append(c.string("text")).append('\n');
            }
        }
        return out.toString();
    }
}
