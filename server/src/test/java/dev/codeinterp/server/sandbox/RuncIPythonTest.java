package dev.codeinterp.server.sandbox;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** IPython.display, display updates and magics over REST, in the real sandbox (runc). */
class RuncIPythonTest {
    static TestApp app;

    @BeforeAll
    static void start() {
        app = TestApp.shared("runc");
    }

    private static JsonObject run(TestApp.SessionRef s, String code) {
        TestApp.Response r = app.post("/api/v1/sessions/" + s.id() + "/execute", Json.write(Map.of("code", code)), s.token());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private static JsonObject once(String code) {
        TestApp.Response r = app.post("/api/v1/execute", Json.write(Map.of("code", code)), null);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    @Test
    void ipython_display_objects_come_back_with_their_mime_types() {
        JsonObject r = once("from IPython.display import display, HTML, Markdown, Math\n"
                + "display(HTML('<b>bold</b>'), Markdown('# title'), Math('x^2'))");
        assertThat(r.optBoolean("success", false)).as(r.asMap().toString()).isTrue();
        List<JsonObject> results = r.objectList("results");
        assertThat(results).hasSize(3);
        assertThat(results.get(0).string("text/html")).isEqualTo("<b>bold</b>");
        assertThat(results.get(1).string("text/markdown")).isEqualTo("# title");
        assertThat(results.get(2).string("text/latex")).isEqualTo("$\\displaystyle x^2$");
    }

    @Test
    void an_updated_display_is_answered_as_its_last_version_and_kept_in_history_with_its_id() {
        TestApp.SessionRef s = app.createSession();
        JsonObject r = run(s, "h = display('step 0', display_id=True)\nprint('between')\nh.update('step 2')\ndisplay('other')");
        List<JsonObject> results = r.objectList("results");
        assertThat(results).extracting(o -> o.string("text/plain")).containsExactly("'step 2'", "'other'");
        assertThat(r.string("stdout")).isEqualTo("between\n");

        List<JsonObject> events = app.get("/api/v1/sessions/" + s.id() + "/events", s.token()).json().objectList("events");
        JsonObject shown = events.stream().filter(e -> e.string("type").equals("display_data")).findFirst().orElseThrow();
        JsonObject update = events.stream().filter(e -> e.string("type").equals("update_display_data")).findFirst().orElseThrow();
        String displayId = shown.object("transient").string("display_id");
        assertThat(update.object("transient").string("display_id")).isEqualTo(displayId);
        assertThat(update.object("data").string("text/plain")).isEqualTo("'step 2'");
    }

    @Test
    void shell_escapes_and_magics_run_in_the_sandbox() {
        TestApp.SessionRef s = app.createSession();
        JsonObject r = run(s, "n = 3\n!echo shell {n * 2} $n\nlines = !printf 'a\\nb\\n'\nprint(lines)\n%cd /tmp\n%time sum(range(10))");
        assertThat(r.optBoolean("success", false)).as(r.asMap().toString()).isTrue();
        assertThat(r.string("stdout")).startsWith("shell 6 3\n['a', 'b']\n/tmp\nCPU times: ");
        assertThat(r.objectList("results").get(0).string("text/plain")).isEqualTo("45");

        run(s, "%%writefile notes.txt\nline one\n!not a command here");
        assertThat(run(s, "!cat notes.txt").string("stdout")).isEqualTo("line one\n!not a command here\n");
    }

    @Test
    void the_answer_after_clear_output_holds_what_came_after_it() {
        JsonObject r = once("from IPython.display import clear_output\nfor i in range(3):\n    clear_output(wait=True)\n"
                + "    print('step', i)\n    display(i)");
        assertThat(r.string("stdout")).isEqualTo("step 2\n");
        assertThat(r.objectList("results")).extracting(o -> o.string("text/plain")).containsExactly("2");
    }

    @Test
    void an_unknown_magic_fails_naming_it() {
        JsonObject r = once("%nosuchmagic arg");
        assertThat(r.optBoolean("success", true)).isFalse();
        JsonObject error = r.object("error");
        assertThat(error.string("name")).isEqualTo("UsageError");
        assertThat(error.string("value")).isEqualTo("Line magic function `%nosuchmagic` not found.");
    }
}
