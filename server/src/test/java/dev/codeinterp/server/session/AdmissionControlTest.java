package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Limit;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.rest.ApiError;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Admission control and API keys against the real server and engine (runc): every refusal is
 * immediate, names its limit and says when to come back; what was admitted keeps working.
 */
class AdmissionControlTest {
    private static final String ALICE = "ci_alice-" + Tokens.newToken();
    private static final String BOB = "ci_bob-" + Tokens.newToken();
    private static TestApp app;

    @BeforeAll
    static void start() throws Exception {
        Path keys = Files.createTempFile("keys", "");
        Files.writeString(keys, "alice " + Tokens.hash(ALICE) + " 2\nbob " + Tokens.hash(BOB) + "\n");
        app = TestApp.start("runc", Map.of("API_KEYS", keys.toString(), "MAX_SESSIONS", "4", "MAX_QUEUED_CELLS", "2",
                "MAX_CONCURRENT_CREATES", "2", "POOL_SIZE", "1"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static TestApp.SessionRef create(String key) {
        TestApp.Response r = app.post("/api/v1/sessions", "", key);
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return new TestApp.SessionRef(r.json().string("id"), r.json().string("token"));
    }

    private static void assertRefused(TestApp.Response r, int status, Limit limit) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        ApiError error = WireCodec.decodeApiError(r.body());
        assertThat(error.limit()).isEqualTo(limit);
        assertThat(error.error()).isNotBlank();
        assertThat(r.headers().get("retry-after")).containsExactly(String.valueOf(error.retryAfterSeconds()));
        assertThat(error.retryAfterSeconds()).isPositive();
    }

    @Test
    void without_a_valid_key_nothing_is_created_and_the_answer_says_how_to_authenticate() {
        for (String key : new String[] {null, "", "ci_guess", ALICE + "x", ALICE.toUpperCase(), "x".repeat(600)}) {
            TestApp.Response r = app.post("/api/v1/sessions", "", key);
            assertThat(r.status()).as(String.valueOf(key)).isEqualTo(401);
            assertThat(r.headers().get("www-authenticate")).containsExactly("Bearer realm=\"codeinterp\"");
            assertThat(JsonObject.parse(r.body()).string("error")).containsIgnoringCase("key");
        }
        assertThat(app.post("/api/v1/execute", "{\"code\":\"print(1)\"}", null).status()).isEqualTo(401);
        assertThat(app.post("/api/v1/sessions", "", "x".repeat(100_000)).status()).as("a huge header").isIn(401, 431);
        assertThat(app.post("/api/v1/execute", "{\"code\":\"print(1)\"}", BOB).json().string("stdout")).isEqualTo("1\n");
        JsonObject health = app.get("/healthz", null).json();
        assertThat(health.asMap().get("auth_required")).isEqualTo(true);
        assertThat(health.asMap().toString()).doesNotContain(Tokens.hash(ALICE));
    }

    @Test
    void a_key_over_its_quota_gets_429_while_another_key_still_gets_sessions() {
        TestApp.SessionRef a1 = create(ALICE);
        TestApp.SessionRef a2 = create(ALICE);
        try {
            assertRefused(app.post("/api/v1/sessions", "", ALICE), 429, Limit.SESSIONS_PER_CLIENT);
            TestApp.SessionRef b = create(BOB);
            assertThat(app.execute(b, "print('bob runs')", null).string("stdout")).isEqualTo("bob runs\n");
            app.delete("/api/v1/sessions/" + b.id(), b.token());
            app.delete("/api/v1/sessions/" + a2.id(), a2.token());
            TestApp.SessionRef again = create(ALICE);
            app.delete("/api/v1/sessions/" + again.id(), again.token());
        } finally {
            app.delete("/api/v1/sessions/" + a1.id(), a1.token());
            app.delete("/api/v1/sessions/" + a2.id(), a2.token());
        }
    }

    @Test
    void a_full_server_answers_503_with_retry_after_and_the_open_sessions_keep_working() {
        List<TestApp.SessionRef> open = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                open.add(create(BOB));
            }
            assertRefused(app.post("/api/v1/sessions", "", BOB), 503, Limit.SESSIONS);
            assertRefused(app.post("/api/v1/execute", "{\"code\":\"1\"}", BOB), 503, Limit.SESSIONS);
            JsonObject health = app.get("/healthz", null).json();
            assertThat(health.string("status")).isEqualTo("ok");
            assertThat(health.asMap().get("use").toString()).contains("sessions=4");
            assertThat(health.asMap().get("limits").toString()).contains("sessions=4");
            for (TestApp.SessionRef s : open) {
                assertThat(app.execute(s, "x = 41\nx + 1", null).string("stdout")).isEmpty();
            }
            TestApp.SessionRef first = open.remove(0);
            app.delete("/api/v1/sessions/" + first.id(), first.token());
            open.add(create(BOB));
        } finally {
            open.forEach(s -> app.delete("/api/v1/sessions/" + s.id(), s.token()));
        }
    }

    @Test
    void a_session_with_its_queue_full_refuses_more_cells_over_rest_and_websocket_and_runs_the_ones_it_took() throws Exception {
        TestApp.SessionRef s = create(BOB);
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
            ws.send(new ClientMessage.Hello(s.token(), Long.MAX_VALUE));
            assertThat(ws.next(5000)).isInstanceOf(ServerMessage.Welcome.class);
            ws.send(new ClientMessage.Execute("import time\ntime.sleep(1.5)\nprint('slow')", null));
            ws.send(new ClientMessage.Execute("print('second')", null));
            ws.send(new ClientMessage.Execute("print('third, over the limit')", null));
            int queued = 0;
            int finished = 0;
            ServerMessage.ProtocolError refusal = null;
            while (finished < 2) {
                ServerMessage m = ws.next(30_000);
                if (m instanceof ServerMessage.ProtocolError p) {
                    refusal = p;
                    assertRefused(app.post("/api/v1/sessions/" + s.id() + "/execute", "{\"code\":\"1\"}", s.token()),
                            429, Limit.QUEUED_CELLS);
                } else if (m instanceof ServerMessage.EventFrame f && f.event().event() instanceof Event.Queued) {
                    queued++;
                } else if (m instanceof ServerMessage.EventFrame f && f.event().event() instanceof Event.Finished) {
                    finished++;
                }
            }
            assertThat(refusal).isNotNull();
            assertThat(refusal.limit()).isEqualTo(Limit.QUEUED_CELLS);
            assertThat(queued).isEqualTo(2);
            assertThat(app.execute(s, "print('room again')", null).string("stdout")).isEqualTo("room again\n");
        } finally {
            app.delete("/api/v1/sessions/" + s.id(), s.token());
        }
    }

    @Test
    void a_flood_of_creates_gets_answers_not_hangs_and_the_server_recovers_when_it_ends() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(40);
        List<Future<TestApp.Response>> answers = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < 120; i++) {
            answers.add(clients.submit(() -> app.post("/api/v1/sessions", "", BOB)));
        }
        List<TestApp.SessionRef> created = new ArrayList<>();
        int refused = 0;
        for (Future<TestApp.Response> f : answers) {
            TestApp.Response r = f.get(60, TimeUnit.SECONDS);
            if (r.status() == 201) {
                created.add(new TestApp.SessionRef(r.json().string("id"), r.json().string("token")));
            } else {
                assertThat(r.status()).as(r.body()).isEqualTo(503);
                assertThat(r.headers().get("retry-after")).isNotEmpty();
                refused++;
            }
        }
        clients.shutdown();
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(created).hasSizeLessThanOrEqualTo(4);
        assertThat(created.size() + refused).isEqualTo(120);
        assertThat(seconds).as("every answer came without waiting out a timeout").isLessThan(45);
        created.forEach(s -> app.delete("/api/v1/sessions/" + s.id(), s.token()));
        TestApp.SessionRef after = create(BOB);
        assertThat(app.execute(after, "print('after the flood')", null).string("stdout")).isEqualTo("after the flood\n");
        assertThat(app.get("/healthz", null).json().string("status")).isEqualTo("ok");
        app.delete("/api/v1/sessions/" + after.id(), after.token());
    }
}
