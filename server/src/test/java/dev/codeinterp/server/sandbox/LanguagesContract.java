package dev.codeinterp.server.sandbox;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** JavaScript and bash cells beside Python, over REST and the WebSocket, against the real engine; once per runtime. */
abstract class LanguagesContract {
    TestApp app;

    abstract String runtime();

    @BeforeEach
    void start() {
        app = TestApp.shared(runtime());
    }

    private TestApp.Response post(String path, String token, String code, String language, Double timeout) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", code);
        body.put("language", language);
        if (timeout != null) {
            body.put("timeout", timeout);
        }
        return app.post(path, Json.write(body), token);
    }

    private JsonObject run(TestApp.SessionRef s, String language, String code, Double timeout) {
        TestApp.Response r = post("/api/v1/sessions/" + s.id() + "/execute", s.token(), code, language, timeout);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private JsonObject once(String language, String code) {
        TestApp.Response r = post("/api/v1/execute", null, code, language, null);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private static String result(JsonObject r) {
        assertThat(r.objectList("results")).as(r.asMap().toString()).hasSize(1);
        return r.objectList("results").get(0).string("text/plain");
    }

    @Test
    void javascript_bash_and_python_share_one_session_each_with_its_own_state() {
        TestApp.SessionRef s = app.createSession();
        assertThat(run(s, "javascript", "console.log(1+1); var x = 'js'", null).string("stdout")).isEqualTo("2\n");
        assertThat(run(s, "bash", "echo $((6*7)); x=sh; cd /tmp", null).string("stdout")).isEqualTo("42\n");
        assertThat(run(s, "python", "x = 'py'\nprint('py ok')", null).string("stdout")).isEqualTo("py ok\n");
        assertThat(result(run(s, "javascript", "x", null))).isEqualTo("'js'");
        assertThat(run(s, "bash", "echo $x; pwd", null).string("stdout")).isEqualTo("sh\n/tmp\n");
        assertThat(result(run(s, "python", "x", null))).isEqualTo("'py'");
    }

    @Test
    void languages_share_the_workspace() {
        TestApp.SessionRef s = app.createSession();
        run(s, "bash", "echo from-bash > shared.txt", null);
        assertThat(result(run(s, "javascript", "require('fs').readFileSync('shared.txt', 'utf8').trim()", null))).isEqualTo("'from-bash'");
        assertThat(result(run(s, "python", "open('shared.txt').read().strip()", null))).isEqualTo("'from-bash'");
    }

    @Test
    void the_seed_checklist_passes_in_javascript() {
        assertThat(once("javascript", "console.log('Hello, World!')").string("stdout")).isEqualTo("Hello, World!\n");
        assertThat(result(once("javascript", "const f = (n) => n <= 1 ? 1 : n * f(n - 1); f(10)"))).isEqualTo("3628800");
        assertThat(once("javascript", "const xs = [1, 2, 3, 4, 5]; console.log(xs.reduce((a, b) => a + b) / xs.length)")
                .string("stdout")).isEqualTo("3\n");
        JsonObject syntax = once("javascript", "let x = ;");
        assertThat(syntax.string("status")).isEqualTo("error");
        assertThat(syntax.object("error").string("name")).isEqualTo("SyntaxError");
        assertThat(syntax.object("error").string("traceback")).doesNotContain("node_repl.js");
    }

    @Test
    void an_endless_javascript_loop_times_out_and_the_session_keeps_its_javascript_state() {
        TestApp.SessionRef s = app.createSession();
        run(s, "javascript", "const answer = 42", null);
        long t0 = System.nanoTime();
        JsonObject r = run(s, "javascript", "while (true) {}", 2.0);
        assertThat(r.string("status")).isEqualTo("timeout");
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(5.0);
        assertThat(result(run(s, "javascript", "answer", null))).isEqualTo("42");
    }

    @Test
    void a_bash_error_status_is_an_error_with_the_exit_code() {
        JsonObject r = once("bash", "echo partial; exit 3");
        assertThat(r.string("status")).isEqualTo("error");
        assertThat(r.string("stdout")).isEqualTo("partial\n");
        assertThat(r.object("error").string("value")).contains("exit status 3");
        JsonObject status = once("bash", "false");
        assertThat(status.object("error").string("name")).isEqualTo("ExitCode");
        assertThat(status.object("error").string("value")).isEqualTo("exit status 1");
    }

    @Test
    void a_javascript_output_flood_hits_the_output_cap() {
        JsonObject r = once("javascript", "for (let i = 0; i < 200000; i++) console.log('spam spam spam spam spam')");
        assertThat(r.string("stdout").length()).isLessThanOrEqualTo(1 << 20);
        assertThat(r.string("stdout")).contains("spam");
    }

    @Test
    void a_bash_fork_bomb_is_contained_and_the_session_still_answers() {
        TestApp.SessionRef s = app.createSession();
        run(s, "bash", ":(){ :|:& };:", 5.0);
        run(s, "python", "1", null); // the bomb may still be spinning: only wait for the session to answer
        app.post("/api/v1/sessions/" + s.id() + "/restart", "", s.token());
        assertThat(result(run(s, "python", "6 * 7", 60.0))).isEqualTo("42");
        assertThat(run(s, "bash", "echo alive", 30.0).string("stdout")).isEqualTo("alive\n");
    }

    @Test
    void an_unknown_language_is_refused_before_anything_runs() {
        TestApp.Response r = post("/api/v1/execute", null, "1", "cobol", null);
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body()).contains("language 'cobol' is not supported; use python, javascript or bash");
    }

    @Test
    void the_preinstalled_analysis_libraries_import() {
        JsonObject r = once("python", "import sklearn, seaborn, sympy, statsmodels, networkx, bs4, plotly\nprint('ok')");
        assertThat(r.string("stdout")).as(r.asMap().toString()).isEqualTo("ok\n");
    }

    @Test
    void over_the_websocket_each_cell_names_its_language() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
            ws.send(new ClientMessage.Hello(s.token(), 0));
            assertThat(ws.next(5000)).isInstanceOf(ServerMessage.Welcome.class);
            ws.send(new ClientMessage.Execute("console.log('from js')", null, "javascript"));
            assertThat(streamUntilFinished(ws)).isEqualTo("from js\n");
            ws.send(new ClientMessage.Execute("echo from bash", null, "bash"));
            assertThat(streamUntilFinished(ws)).isEqualTo("from bash\n");
            ws.send(new ClientMessage.Execute("1", null, "cobol"));
            ServerMessage refused = ws.next(5000);
            assertThat(refused).isInstanceOf(ServerMessage.ProtocolError.class);
            assertThat(((ServerMessage.ProtocolError) refused).message()).contains("language 'cobol' is not supported");
        }
    }

    @Test
    void the_history_keeps_each_cells_language_on_its_queued_event() {
        TestApp.SessionRef s = app.createSession();
        run(s, "javascript", "1", null);
        run(s, "bash", "true", null);
        run(s, "Python", "1", null);
        java.util.List<String> languages = new java.util.ArrayList<>();
        for (JsonObject e : app.get("/api/v1/sessions/" + s.id() + "/events", s.token()).json().objectList("events")) {
            if (e.string("type").equals("queued")) {
                languages.add(e.optString("language", "python")); // absent means Python, as in a request
            }
        }
        assertThat(languages).containsExactly("javascript", "bash", "python");
    }

    @Test
    void javascript_and_bash_cells_report_their_own_cpu_and_peak_memory() {
        TestApp.SessionRef s = app.createSession();
        run(s, "javascript", "1", null); // node's start-up is the first cell's
        run(s, "javascript", "const t = process.cpuUsage(); while (process.cpuUsage(t).user < 200000) {}", null);
        run(s, "bash", "python3 -c 'import time; x = b\"x\" * (100 << 20); time.sleep(0.3)'", null);
        java.util.List<JsonObject> finished = new java.util.ArrayList<>();
        for (JsonObject e : app.get("/api/v1/sessions/" + s.id() + "/events", s.token()).json().objectList("events")) {
            if (e.string("type").equals("finished")) {
                finished.add(e);
            }
        }
        assertThat(finished).hasSize(3);
        assertThat(finished.get(1).optIntegerOrNull("cpu_ms")).as(finished.get(1).asMap().toString()).isGreaterThanOrEqualTo(150);
        assertThat(finished.get(2).optIntegerOrNull("peak_memory_kb")).as(finished.get(2).asMap().toString())
                .isGreaterThan(100 * 1024);
    }

    private static String streamUntilFinished(WsClient ws) throws InterruptedException {
        StringBuilder out = new StringBuilder();
        while (true) {
            ServerMessage m = ws.next(30_000);
            if (m instanceof ServerMessage.EventFrame f) {
                if (f.event().event() instanceof Event.Stream st) {
                    out.append(st.text());
                }
                if (f.event().event() instanceof Event.Finished fin) {
                    assertThat(fin.status()).isEqualTo(Status.OK);
                    return out.toString();
                }
            }
        }
    }
}
