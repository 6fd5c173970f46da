package dev.codeinterp.server.metrics;

import dev.codeinterp.server.session.Tokens;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code /metrics} of the real server (runc): Prometheus text that a strict reader accepts, whose counters move with the work. */
class MetricsTest {
    private static final String OK_PYTHON = "codeinterp_executions_total{status=\"ok\",language=\"python\"}";

    private static PrometheusText scrape(TestApp app, String key) {
        TestApp.Response r = app.get("/metrics", key);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().get("content-type").get(0)).startsWith("text/plain; version=0.0.4");
        return PrometheusText.parse(r.body());
    }

    @Test
    void the_counters_move_when_a_cell_runs() {
        TestApp app = TestApp.shared("runc");
        PrometheusText before = scrape(app, null);
        TestApp.SessionRef s = app.createSession();
        app.execute(s, "print('x' * 1000)", null);
        app.execute(s, "1/0", null);
        TestApp.Response third = app.post("/api/v1/sessions/" + s.id() + "/execute", "{\"code\": \"1\"}", s.token());
        assertThat(third.status()).isEqualTo(200);
        PrometheusText after = scrape(app, null);

        assertThat(after.value(OK_PYTHON) - before.value(OK_PYTHON)).isGreaterThanOrEqualTo(2);
        assertThat(after.value("codeinterp_executions_total{status=\"error\",language=\"python\"}")
                - before.value("codeinterp_executions_total{status=\"error\",language=\"python\"}")).isGreaterThanOrEqualTo(1);
        assertThat(after.value("codeinterp_streamed_bytes_total{stream=\"stdout\"}")
                - before.value("codeinterp_streamed_bytes_total{stream=\"stdout\"}")).isGreaterThanOrEqualTo(1001);
        assertThat(after.value("codeinterp_execution_duration_seconds_count{language=\"python\"}")
                - before.value("codeinterp_execution_duration_seconds_count{language=\"python\"}")).isGreaterThanOrEqualTo(3);
        assertThat(after.value("codeinterp_execution_queue_wait_seconds_count")
                - before.value("codeinterp_execution_queue_wait_seconds_count")).isGreaterThanOrEqualTo(3);
        assertThat(after.sum("codeinterp_pool_acquire_seconds_count") - before.sum("codeinterp_pool_acquire_seconds_count"))
                .isGreaterThanOrEqualTo(1);
        assertThat(after.value("codeinterp_store_commit_seconds_count") - before.value("codeinterp_store_commit_seconds_count"))
                .isGreaterThanOrEqualTo(1);
        assertThat(after.value("codeinterp_sessions_open")).isGreaterThanOrEqualTo(1);
        assertThat(after.value("codeinterp_sandbox_starts_total{runtime=\"runc\",outcome=\"ok\"}")).isGreaterThanOrEqualTo(1);
        assertThat(after.value("codeinterp_sandbox_start_seconds_count{runtime=\"runc\"}")).isGreaterThanOrEqualTo(1);
        assertThat(after.value("codeinterp_pool_target_sandboxes")).isEqualTo(1);
        assertThat(after.has("codeinterp_pool_ready_sandboxes")).isTrue();
        assertThat(after.has("codeinterp_websocket_connections")).isTrue();
        assertThat(after.type("codeinterp_executions_total")).isEqualTo("counter");
        assertThat(after.type("codeinterp_execution_duration_seconds")).isEqualTo("histogram");
        assertThat(after.has("jvm_memory_used_bytes")).as("JVM metrics").isTrue();
        assertThat(after.has("jvm_threads_current")).isTrue();
        app.delete("/api/v1/sessions/" + s.id(), s.token());
    }

    @Test
    void a_websocket_is_counted_while_it_is_open() throws Exception {
        TestApp app = TestApp.shared("runc");
        TestApp.SessionRef s = app.createSession();
        double before = scrape(app, null).value("codeinterp_websocket_connections");
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
            awaitGauge(app, "codeinterp_websocket_connections", before + 1);
        }
        awaitGauge(app, "codeinterp_websocket_connections", before);
        app.delete("/api/v1/sessions/" + s.id(), s.token());
    }

    @Test
    void with_api_keys_metrics_need_a_key_and_rejections_are_counted_by_limit() throws Exception {
        String key = "ci_metrics-" + Tokens.newToken();
        Path keys = Files.createTempFile("keys", "");
        Files.writeString(keys, "scraper " + Tokens.hash(key) + " 1\n");
        try (TestApp app = TestApp.start("runc", Map.of("API_KEYS", keys.toString(), "POOL_SIZE", "0"))) {
            assertThat(app.get("/metrics", null).status()).isEqualTo(401);
            assertThat(app.get("/metrics", null).headers().get("www-authenticate")).containsExactly("Bearer realm=\"codeinterp\"");
            assertThat(app.get("/metrics", key + "x").status()).isEqualTo(401);
            TestApp.Response first = app.post("/api/v1/sessions", "", key);
            assertThat(first.status()).as(first.body()).isEqualTo(201);
            assertThat(app.post("/api/v1/sessions", "", key).status()).as("over its quota of one").isEqualTo(429);
            PrometheusText metrics = scrape(app, key);
            assertThat(metrics.value("codeinterp_admission_rejections_total{limit=\"sessions_per_client\"}")).isEqualTo(1);
            assertThat(metrics.value("codeinterp_sandbox_starts_total{runtime=\"runc\",outcome=\"ok\"}")).isEqualTo(1);
            assertThat(metrics.value("codeinterp_pool_acquire_seconds_count{source=\"cold\"}")).isEqualTo(1);
        }
    }

    /** The server counts a connection when its upgrade is done, which the client may see a moment earlier. */
    private static void awaitGauge(TestApp app, String gauge, double expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 5000;
        while (scrape(app, null).value(gauge) != expected && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(scrape(app, null).value(gauge)).isEqualTo(expected);
    }

    @Test
    void the_reader_is_strict() {
        assertThat(PrometheusText.parse("# HELP a x\n# TYPE a counter\na_total{b=\"c\\\"d\"} 1.5\n").value("a_total{b=\"c\\\"d\"}"))
                .isEqualTo(1.5);
        for (String bad : new String[]{"a 1", "a{b=c} 1\n", "a{b=\"c\"} one\n", "1a 2\n", "a 1\na 2\n", "# TYPE a countr\n",
                "a 1\n# TYPE a counter\n", "a{b=\"c\",b=\"d\"} 1\n", "a{b=\"\\x\"} 1\n"}) {
            assertThatThrownBy(() -> PrometheusText.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
