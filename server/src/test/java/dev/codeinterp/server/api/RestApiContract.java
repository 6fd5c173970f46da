package dev.codeinterp.server.api;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/** The REST tool API's contract, against the real server and Docker engine, run once per runtime. */
abstract class RestApiContract {
    TestApp app;

    abstract String runtime();

    @BeforeEach
    void start() {
        app = TestApp.shared(runtime());
    }

    @Test
    void hello_world_prints_to_stdout() {
        JsonObject r = app.executeOnce("print('Hello, World!')", null);
        assertThat(r.optBoolean("success", false)).isTrue();
        assertThat(r.string("status")).isEqualTo("ok");
        assertThat(r.string("stdout")).isEqualTo("Hello, World!\n");
        assertThat(r.string("stderr")).isEmpty();
        assertThat(r.has("error")).isFalse();
        assertThat(r.number("executionTime")).isGreaterThan(0);
    }

    @Test
    void factorial_of_ten_is_the_trailing_expression_result() {
        JsonObject r = app.executeOnce("import math\nmath.factorial(10)", null);
        assertThat(r.objectList("results")).hasSize(1);
        assertThat(r.objectList("results").get(0).string("text/plain")).isEqualTo("3628800");
    }

    @Test
    void mean_of_one_to_five_is_three() {
        JsonObject r = app.executeOnce("import statistics\nprint(statistics.mean([1, 2, 3, 4, 5]))", null);
        assertThat(r.string("stdout").trim()).isEqualTo("3");
    }

    @Test
    void a_bar_chart_gives_exactly_one_png() {
        JsonObject r = app.executeOnce("import matplotlib.pyplot as plt\nplt.bar(['a', 'b', 'c'], [10, 20, 30])\nplt.show()", 60.0);
        assertThat(r.string("status")).as(r.asMap().toString()).isEqualTo("ok");
        assertThat(r.objectList("images")).hasSize(1);
        byte[] png = Base64.getDecoder().decode(r.objectList("images").get(0).string("base64"));
        assertThat(png).startsWith(0x89, 'P', 'N', 'G');
    }

    @Test
    void an_unfinished_expression_is_a_syntax_error_not_a_crash() {
        JsonObject r = app.executeOnce("print(2 +", null);
        assertThat(r.optBoolean("success", true)).isFalse();
        assertThat(r.string("status")).isEqualTo("error");
        assertThat(r.object("error").string("name")).isEqualTo("SyntaxError");
        assertThat(r.object("error").string("traceback")).doesNotContain("codeinterp_runner");
    }

    @Test
    void an_endless_loop_times_out_within_five_seconds_and_the_session_keeps_its_variables() {
        TestApp.SessionRef s = app.createSession();
        app.execute(s, "answer = 42", null);
        long t0 = System.nanoTime();
        JsonObject r = app.execute(s, "while True: pass", 2.0);
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(r.string("status")).isEqualTo("timeout");
        assertThat(seconds).isLessThan(5.0);
        assertThat(app.execute(s, "answer", null).objectList("results").get(0).string("text/plain")).isEqualTo("42");
    }

    @Test
    void a_cell_that_ignores_sigint_is_stopped_by_restart() {
        TestApp.SessionRef s = app.createSession();
        long t0 = System.nanoTime();
        JsonObject r = app.execute(s, "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True: time.sleep(0.01)", 1.0);
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(r.string("status")).isEqualTo("timeout");
        assertThat(seconds).isLessThan(8.0);
        // the interpreter is fresh, and works
        JsonObject after = app.execute(s, "1 + 1", null);
        assertThat(after.objectList("results").get(0).string("text/plain")).isEqualTo("2");
        JsonObject history = app.get("/api/v1/sessions/" + s.id() + "/events", s.token()).json();
        assertThat(history.objectList("events")).anySatisfy(e -> assertThat(e.string("type")).isEqualTo("restarted"));
    }

    @Test
    void state_persists_between_calls_of_a_session() {
        TestApp.SessionRef s = app.createSession();
        app.execute(s, "x = 41", null);
        assertThat(app.execute(s, "x + 1", null).objectList("results").get(0).string("text/plain")).isEqualTo("42");
    }

    @Test
    void malformed_requests_get_a_4xx_with_an_error_message() {
        for (String body : new String[]{"", "{", "[]", "{\"code\": 5}", "{\"nocode\": 1}", "{\"code\":\"1\",\"timeout\":-1}",
                "{\"code\":\"1\",\"language\":\"cobol\"}", "[".repeat(100_000)}) {
            TestApp.Response r = app.post("/api/v1/execute", body, null);
            assertThat(r.status()).as(body.length() > 50 ? "deep nesting" : body).isBetween(400, 499);
            assertThat(r.json().string("error")).isNotBlank();
        }
    }

    @Test
    void a_wrong_or_missing_token_reveals_nothing() {
        TestApp.SessionRef s = app.createSession();
        TestApp.Response wrong = app.post("/api/v1/sessions/" + s.id() + "/execute", "{\"code\":\"1\"}", "not-the-token");
        TestApp.Response missing = app.post("/api/v1/sessions/" + s.id() + "/execute", "{\"code\":\"1\"}", null);
        TestApp.Response unknown = app.post("/api/v1/sessions/nope/execute", "{\"code\":\"1\"}", s.token());
        assertThat(wrong.status()).isEqualTo(404);
        assertThat(missing.status()).isEqualTo(404);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(wrong.body()).isEqualTo(unknown.body());
    }

    @Test
    void a_closed_session_is_gone() {
        TestApp.SessionRef s = app.createSession();
        assertThat(app.delete("/api/v1/sessions/" + s.id(), s.token()).status()).isEqualTo(204);
        assertThat(app.post("/api/v1/sessions/" + s.id() + "/execute", "{\"code\":\"1\"}", s.token()).status()).isEqualTo(404);
    }

    @Test
    void healthz_reports_engine_runtimes_image_and_pool() {
        JsonObject h = app.get("/healthz", null).json();
        assertThat(h.string("status")).isEqualTo("ok");
        assertThat(h.object("docker").string("version")).isNotBlank();
        assertThat(h.object("docker").stringList("runtimes")).contains("runc", "runsc");
        assertThat(h.string("image")).startsWith("codeinterp-sandbox:");
        assertThat(h.object("pool").integer("target")).isEqualTo(1);
    }

    @Test
    void answers_carry_a_strict_content_security_policy() {
        TestApp.Response r = app.get("/healthz", null);
        assertThat(r.headers().get("content-security-policy").get(0)).contains("frame-ancestors 'none'");
        assertThat(r.headers().get("x-content-type-options").get(0)).isEqualTo("nosniff");
    }

    @Test
    void input_files_are_placed_in_the_workspace_before_the_code_runs() {
        String csv = Base64.getEncoder().encodeToString("region,sales\nnorth,120\nsouth,80\nnorth,30\n".getBytes());
        String body = "{\"code\": \"import pandas as pd\\ndf = pd.read_csv('sales.csv')\\nprint(df.groupby('region').sales.sum()['north'])\","
                + "\"files\": [{\"name\": \"sales.csv\", \"content_base64\": \"" + csv + "\"}]}";
        TestApp.Response r = app.post("/api/v1/execute", body, null);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().string("stdout")).isEqualTo("150\n");
    }

    @Test
    void input_files_with_hostile_names_are_refused() {
        for (String name : new String[]{"../etc/passwd", "/etc/passwd", "a/b", "..", ".", "a\\\\b", "bad\\u0000name", "x".repeat(300), ""}) {
            String body = "{\"code\": \"1\", \"files\": [{\"name\": \"" + name + "\", \"content_base64\": \"aGk=\"}]}";
            TestApp.Response r = app.post("/api/v1/execute", body, null);
            assertThat(r.status()).as(name).isEqualTo(400);
            assertThat(r.json().string("error")).isNotBlank();
        }
    }
}
