package dev.codeinterp.server.assistant;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * An in-process chat-completions endpoint that answers each request with the next scripted reply:
 * only for the faults a real llama-server cannot be made to produce (arguments split across
 * chunks, bytes split mid-line, 429, a dropped stream, a stall). Records every request body.
 */
final class ScriptedEndpoint implements AutoCloseable {
    interface Reply {
        void write(HttpExchange exchange) throws IOException, InterruptedException;
    }

    private final HttpServer server;
    private final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();
    final List<String> requests = new CopyOnWriteArrayList<>();
    final List<String> authorizations = new CopyOnWriteArrayList<>();

    ScriptedEndpoint() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/v1/chat/completions", exchange -> {
            try (exchange) {
                requests.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
                Reply reply = replies.poll();
                if (reply == null) {
                    status(500, "{\"error\":{\"message\":\"no scripted reply left\"}}").write(exchange);
                } else {
                    reply.write(exchange);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException clientWentAway) {
                // part of some scripts
            }
        });
        server.start();
    }

    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
    }

    ScriptedEndpoint then(Reply reply) {
        replies.add(reply);
        return this;
    }

    /** An SSE stream written in the given raw pieces, each flushed on its own after a short pause. */
    static Reply stream(String... pieces) {
        return exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            for (String piece : pieces) {
                out.write(piece.getBytes(StandardCharsets.UTF_8));
                out.flush();
                Thread.sleep(15);
            }
        };
    }

    /** An SSE stream cut into pieces of {@code size} bytes: lines and UTF-8 characters split across reads. */
    static Reply bytes(String all, int size) {
        byte[] b = all.getBytes(StandardCharsets.UTF_8);
        return exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            for (int i = 0; i < b.length; i += size) {
                out.write(b, i, Math.min(size, b.length - i));
                out.flush();
                Thread.sleep(2);
            }
        };
    }

    /** No answer at all: the connection is closed, as an endpoint does to a kept-alive connection it dropped. */
    static Reply hangUp() {
        return exchange -> exchange.close();
    }

    static Reply status(int code, String body) {
        return status(code, body, null);
    }

    static Reply status(int code, String body, String retryAfter) {
        return exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            if (retryAfter != null) {
                exchange.getResponseHeaders().set("Retry-After", retryAfter);
            }
            exchange.sendResponseHeaders(code, bytes.length);
            exchange.getResponseBody().write(bytes);
        };
    }

    /** {@code data: <json>} and the blank line that dispatches it. */
    static String data(String json) {
        return "data: " + json + "\n\n";
    }

    static String textChunk(String text) {
        return data("{\"choices\":[{\"index\":0,\"delta\":{\"content\":" + dev.codeinterp.model.json.Json.write(text)
                + "},\"finish_reason\":null}]}");
    }

    static String toolChunk(int index, String id, String name, String argumentsFragment) {
        StringBuilder call = new StringBuilder("{\"index\":" + index);
        if (id != null) {
            call.append(",\"id\":\"").append(id).append("\",\"type\":\"function\"");
        }
        call.append(",\"function\":{");
        if (name != null) {
            call.append("\"name\":\"").append(name).append("\",");
        }
        call.append("\"arguments\":").append(dev.codeinterp.model.json.Json.write(argumentsFragment)).append("}}");
        return data("{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[" + call + "]},\"finish_reason\":null}]}");
    }

    static String finish(String reason) {
        return data("{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"" + reason + "\"}]}");
    }

    static final String DONE = "data: [DONE]\n\n";

    @Override
    public void close() {
        server.stop(0);
    }
}
