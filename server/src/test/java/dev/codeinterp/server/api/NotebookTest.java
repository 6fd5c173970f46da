package dev.codeinterp.server.api;

import dev.codeinterp.model.AssistantStatus;
import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.notebook.ImportedNotebook;
import dev.codeinterp.model.notebook.NotebookCell;
import dev.codeinterp.model.notebook.NotebookExport;
import dev.codeinterp.model.notebook.NotebookImport;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /api/v1/sessions/{id}/notebook.ipynb} on a real conversation: the file passes Debian's
 * {@code python3-nbformat} validation (the 4.5 schema), and its cells import back and run again to
 * the same kinds of output.
 */
class NotebookTest {
    /** Debian's interpreter, where python3-nbformat is installed (scripts/setup-host.sh), not whatever python3 is first on PATH. */
    private static final String HOST_PYTHON = "/usr/bin/python3";
    private static final String PLOTLY = "import json, plotly.graph_objects as go\n"
            + "fig = go.Figure(go.Bar(x=['a', 'b', 'c'], y=[1, 3, 2]))\n"
            + "display({'application/vnd.plotly.v1+json': json.loads(fig.to_json()), 'text/plain': 'Figure'}, raw=True)";

    private TestApp app;

    @BeforeEach
    void start() {
        app = TestApp.shared("runc");
    }

    private void run(TestApp.SessionRef s, String code, Language language) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", code);
        body.put("language", language.wire());
        TestApp.Response r = app.post("/api/v1/sessions/" + s.id() + "/execute", Json.write(body), s.token());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
    }

    private TestApp.Response export(TestApp.SessionRef s) {
        return app.get("/api/v1/sessions/" + s.id() + "/notebook.ipynb", s.token());
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> cells(String notebook) {
        return (List<Map<String, Object>>) Json.parseObject(notebook).get("cells");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> outputs(Map<String, Object> cell) {
        return (List<Map<String, Object>>) cell.get("outputs");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> data(Map<String, Object> output) {
        return (Map<String, Object>) output.get("data");
    }

    private static List<String> outputTypes(Map<String, Object> cell) {
        List<String> types = new ArrayList<>();
        for (Map<String, Object> o : outputs(cell)) {
            types.add((String) o.get("output_type"));
        }
        return types;
    }

    @Test
    void a_conversation_exports_as_a_notebook_that_nbformat_validates_and_that_imports_and_runs_again() throws Exception {
        TestApp.SessionRef s = app.createSession();
        run(s, "print('hello <script>alert(1)</script> \\x1b[31mred\\x1b[0m')", Language.PYTHON);
        run(s, "import pandas as pd\ndf = pd.DataFrame({'city': ['Oslo', 'Lima'], 'temp': [3, 19]})\ndf", Language.PYTHON);
        run(s, "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [2, 4, 1])\nplt.show()", Language.PYTHON);
        run(s, "1/0", Language.PYTHON);
        run(s, PLOTLY, Language.PYTHON);
        run(s, "console.log(6 * 7)", Language.JAVASCRIPT);

        TestApp.Response r = export(s);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.headers().get("content-type")).singleElement().asString().startsWith("application/x-ipynb+json");
        assertThat(r.headers().get("content-disposition")).singleElement().asString()
                .startsWith("attachment; filename=\"codeinterp-" + s.id().substring(s.id().indexOf('.') + 1).substring(0, 8) + ".ipynb\"");
        assertThat(r.headers().get("x-content-type-options")).containsExactly("nosniff");

        String facts = nbformatValidates(r.body());
        assertThat(facts).isEqualTo("4.5 6 python3");

        List<Map<String, Object>> cells = cells(r.body());
        assertThat(cells).extracting(c -> c.get("execution_count")).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(outputs(cells.get(0)).get(0)).containsEntry("output_type", "stream").containsEntry("name", "stdout")
                .containsEntry("text", "hello <script>alert(1)</script> \u001b[31mred\u001b[0m\n");
        Map<String, Object> table = outputs(cells.get(1)).get(0);
        assertThat(table).containsEntry("output_type", "execute_result").containsEntry("execution_count", 2L);
        assertThat((String) data(table).get("text/html")).contains("<table").contains("Oslo");
        assertThat((String) data(table).get("text/plain")).contains("Lima");
        Map<String, Object> chart = outputs(cells.get(2)).get(0);
        assertThat(chart).containsEntry("output_type", "display_data");
        byte[] png = Base64.getDecoder().decode((String) data(chart).get("image/png"));
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        Map<String, Object> error = outputs(cells.get(3)).get(0);
        assertThat(error).containsEntry("output_type", "error").containsEntry("ename", "ZeroDivisionError");
        assertThat(error.get("traceback").toString()).contains("ZeroDivisionError");
        Map<String, Object> plotly = outputs(cells.get(4)).get(0);
        assertThat(data(plotly).get("application/vnd.plotly.v1+json")).isInstanceOf(Map.class);
        assertThat(cells.get(5).get("metadata").toString()).contains("language=javascript");
        assertThat(outputs(cells.get(5)).get(0)).containsEntry("text", "42\n");

        // Import: the same cells in the same languages; Run all in a new session gives the same kinds of output
        ImportedNotebook imported = NotebookImport.read(r.body());
        assertThat(imported.cells()).extracting(NotebookCell::language).containsExactly(Language.PYTHON, Language.PYTHON,
                Language.PYTHON, Language.PYTHON, Language.PYTHON, Language.JAVASCRIPT);
        TestApp.SessionRef again = app.createSession();
        for (NotebookCell cell : imported.cells()) {
            run(again, cell.code(), cell.language());
        }
        List<Map<String, Object>> rerun = cells(export(again).body());
        assertThat(rerun).extracting(c -> c.get("source")).isEqualTo(cells.stream().map(c -> c.get("source")).toList());
        assertThat(rerun).extracting(NotebookTest::outputTypes).isEqualTo(cells.stream().map(NotebookTest::outputTypes).toList());
    }

    @Test
    void an_empty_session_exports_an_empty_notebook_that_still_validates() throws Exception {
        TestApp.SessionRef s = app.createSession();
        TestApp.Response r = export(s);
        assertThat(r.status()).isEqualTo(200);
        assertThat(nbformatValidates(r.body())).isEqualTo("4.5 0 python3");
    }

    @Test
    void the_notebook_needs_the_session_token() {
        TestApp.SessionRef s = app.createSession();
        assertThat(app.get("/api/v1/sessions/" + s.id() + "/notebook.ipynb", null).status()).isEqualTo(404);
        assertThat(app.get("/api/v1/sessions/" + s.id() + "/notebook.ipynb", "not-the-token").status()).isEqualTo(404);
        assertThat(app.get("/api/v1/sessions/no-such-session/notebook.ipynb", s.token()).status()).isEqualTo(404);
    }

    @Test
    void an_assistant_turn_exports_as_markdown_cells_that_nbformat_validates() throws Exception {
        List<SessionEvent> events = new ArrayList<>();
        events.add(new SessionEvent(1, "a1", 1L, new Event.Prompt("What is 6 * 7? <script>alert(1)</script>")));
        events.add(new SessionEvent(2, "c1", 2L, new Event.Queued("print(6 * 7)")));
        events.add(new SessionEvent(3, "a1", 3L, new Event.ToolCall("call-1", "run_code", "{}", "c1")));
        events.add(new SessionEvent(4, "c1", 4L, new Event.Stream(StreamName.STDOUT, "42\n")));
        events.add(new SessionEvent(5, "a1", 5L, new Event.AssistantText("The answer is 42.")));
        events.add(new SessionEvent(6, "a1", 6L, new Event.AssistantDone(AssistantStatus.ANSWERED, null)));
        assertThat(nbformatValidates(NotebookExport.of(events))).isEqualTo("4.5 3 python3");
    }

    /** Runs nbformat.read + nbformat.validate on the file; answers "minor-version cells kernel" from Python's reading. */
    private static String nbformatValidates(String notebook) throws IOException, InterruptedException {
        Path file = Files.createTempFile("codeinterp-notebook", ".ipynb");
        try {
            Files.writeString(file, notebook);
            Process p = new ProcessBuilder(HOST_PYTHON, "-c", "import sys, nbformat\n"
                    + "nb = nbformat.read(sys.argv[1], as_version=4)\n"
                    + "nbformat.validate(nb)\n"
                    + "print(f'{nb.nbformat}.{nb.nbformat_minor} {len(nb.cells)} {nb.metadata.kernelspec.name}')", file.toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("nbformat (python3-nbformat, see scripts/setup-host.sh) said: " + out).isZero();
            return out;
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
