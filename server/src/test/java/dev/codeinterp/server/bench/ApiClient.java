package dev.codeinterp.server.bench;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.rest.ApiError;
import dev.codeinterp.model.rest.ExecuteRequest;
import dev.codeinterp.model.wire.WireCodec;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The REST API of docs/protocol.md as a load client sees it. Creates, deletes and probes go through
 * one JDK HttpClient (a connection per request in flight, kept alive between requests); a busy
 * user's cells go over its {@link #userConnection}. Counts every "come back later" answer (429/503)
 * by the limit it names.
 */
final class ApiClient {
    private static final List<Integer> LIMIT_STATUSES = List.of(429, 503);
    private static final int CLOSE_PARALLELISM = 16;

    private final String base;
    private final String apiKey;
    private final HttpClient http;
    private final Map<String, AtomicInteger> limitAnswers = new ConcurrentHashMap<>();

    /** {@code apiKey} goes with creates when the server requires keys; null when it does not. */
    ApiClient(String base, String apiKey, HttpClient.Version version) {
        this.base = base;
        this.apiKey = apiKey;
        this.http = HttpClient.newBuilder().version(version).connectTimeout(Duration.ofSeconds(10)).build();
    }

    record Reply(int status, String body, String retryAfter, double millis) {
        JsonObject json() {
            return JsonObject.parse(body);
        }
    }

    record SessionRef(String id, String token) {
    }

    /** A session, following the retry rule: a 429/503 answer is retried after its Retry-After. */
    SessionRef create(Instant deadline) throws InterruptedException {
        while (true) {
            Duration left = Duration.between(Instant.now(), deadline);
            if (left.isNegative() || left.isZero()) {
                throw new IllegalStateException("no session before the deadline");
            }
            Reply r = send(post("/api/v1/sessions", "", apiKey, min(left, Duration.ofSeconds(120))));
            if (r.status() == 201) {
                JsonObject o = r.json();
                return new SessionRef(o.string("id"), o.string("token"));
            }
            if (!LIMIT_STATUSES.contains(r.status())) {
                throw new IllegalStateException("create answered " + r.status() + ": " + abbreviate(r.body()));
            }
            countLimitAnswer(r);
            long waitMs = retryAfterSeconds(r) * 1000L;
            Thread.sleep(Math.max(0, Math.min(waitMs, Duration.between(Instant.now(), deadline).toMillis())));
        }
    }

    /** One create, answered as is (the M+1th session of the idle scenario). */
    Reply createOnce() {
        return send(post("/api/v1/sessions", "", apiKey, Duration.ofSeconds(120)));
    }

    Reply execute(SessionRef s, String code) {
        return send(post(executePath(s), executeBody(code), s.token(), Duration.ofSeconds(90)));
    }

    /** How one simulated user sends its cells. */
    interface UserConnection extends AutoCloseable {
        Reply execute(SessionRef s, String code);

        @Override
        void close();
    }

    /**
     * With {@code ownConnection}, the user's own kept-alive HTTP/1.1 connection, written and read on
     * its own thread, as a browser tab or a script with its own client has; otherwise this shared JDK
     * HttpClient. Both are loopback clients on the server's two cores: the JDK client's selector and
     * executor hand-offs cost ~3x the CPU per request (0.9-1.25 ms against 0.31 ms in busy-pool's
     * steady state), which the server then does not get.
     */
    UserConnection userConnection(boolean ownConnection) {
        if (!ownConnection) {
            return new UserConnection() {
                public Reply execute(SessionRef s, String code) {
                    return ApiClient.this.execute(s, code);
                }

                public void close() {
                }
            };
        }
        RawHttp http = RawHttp.keptAlive(base);
        return new UserConnection() {
            public Reply execute(SessionRef s, String code) {
                long t0 = System.nanoTime();
                try {
                    RawHttp.Reply r = http.exchange("POST", executePath(s), s.token(), executeBody(code));
                    return new Reply(r.status(), r.body(), null, (System.nanoTime() - t0) / 1e6);
                } catch (IOException | RuntimeException e) {
                    close(); // the next cell connects again
                    return new Reply(0, e.getClass().getSimpleName() + ": " + e.getMessage(), null, (System.nanoTime() - t0) / 1e6);
                }
            }

            public void close() {
                try {
                    http.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        };
    }

    private static String executePath(SessionRef s) {
        return "/api/v1/sessions/" + s.id() + "/execute";
    }

    private static String executeBody(String code) {
        return WireCodec.encode(new ExecuteRequest(code, "python", null, List.of()));
    }

    /** {@code POST /api/v1/sessions/{id}/suspend}: the interpreter and files to disk, the container removed. */
    Reply suspend(SessionRef s) {
        return send(post("/api/v1/sessions/" + s.id() + "/suspend", "", s.token(), Duration.ofMinutes(5)));
    }

    Reply delete(SessionRef s) {
        return send(request("/api/v1/sessions/" + s.id(), s.token(), Duration.ofSeconds(60)).DELETE().build());
    }

    /** Deletes every session, a few at a time; answers how many were answered 204. */
    int closeAll(List<SessionRef> sessions) throws InterruptedException {
        AtomicInteger closed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(CLOSE_PARALLELISM);
        for (SessionRef s : List.copyOf(sessions)) {
            pool.execute(() -> {
                if (delete(s).status() == 204) {
                    closed.incrementAndGet();
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.MINUTES);
        return closed.get();
    }

    Reply get(String path, String token, Duration timeout) {
        return send(request(path, token, timeout).GET().build());
    }

    /** "503 sessions Retry-After 1 s" → how many answers of that status named that limit and wait. */
    Map<String, Integer> limitAnswers() {
        Map<String, Integer> out = new TreeMap<>();
        limitAnswers.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    int limitAnswerCount() {
        return limitAnswers.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    private void countLimitAnswer(Reply r) {
        String limit;
        try {
            ApiError error = WireCodec.decodeApiError(r.body());
            limit = error.limit() == null ? "no limit named" : error.limit().wire();
        } catch (RuntimeException e) {
            limit = "body not JSON";
        }
        String key = r.status() + " " + limit + (r.retryAfter() == null ? " (no Retry-After!)" : " Retry-After " + r.retryAfter().trim() + " s");
        limitAnswers.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
    }

    private static long retryAfterSeconds(Reply r) {
        try {
            return r.retryAfter() == null ? 1 : Math.max(0, Long.parseLong(r.retryAfter().trim()));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private HttpRequest post(String path, String body, String token, Duration timeout) {
        return request(path, token, timeout).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private HttpRequest.Builder request(String path, String token, Duration timeout) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout);
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    /** Sends; a transport failure or timeout is an answer with status 0 and the reason as body. */
    private Reply send(HttpRequest request) {
        long t0 = System.nanoTime();
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body(), r.headers().firstValue("Retry-After").orElse(null), (System.nanoTime() - t0) / 1e6);
        } catch (IOException e) {
            return new Reply(0, e.getClass().getSimpleName() + ": " + e.getMessage(), null, (System.nanoTime() - t0) / 1e6);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Reply(0, "interrupted", null, (System.nanoTime() - t0) / 1e6);
        }
    }

    static String abbreviate(String s) {
        String one = s == null ? "" : s.replaceAll("\\s+", " ");
        return one.length() > 200 ? one.substring(0, 200) + "…" : one;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
    }
}
