package dev.codeinterp.model.notebook;

import dev.codeinterp.model.AssistantStatus;
import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.model.json.Json;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class NotebookExportTest {
    private final List<SessionEvent> events = new ArrayList<>();

    private void emit(String executionId, Event event) {
        events.add(new SessionEvent(events.size() + 1, executionId, 1700000000000L + events.size(), event));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> exported() {
        return (Map<String, Object>) Json.parseObject(NotebookExport.of(events));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value) {
        return (List<Map<String, Object>>) value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @Test
    void each_execution_becomes_a_code_cell_with_its_outputs_in_order() {
        emit("e1", new Event.Queued("print('a')\nprint('b', file=sys.stderr)\n1+1"));
        emit("e1", new Event.Started(1));
        emit("e1", new Event.Stream(StreamName.STDOUT, "a\n"));
        emit("e1", new Event.Stream(StreamName.STDOUT, "more\n"));
        emit("e1", new Event.Stream(StreamName.STDERR, "b\n"));
        emit("e1", new Event.ExecuteResult(1, Map.of("text/plain", "2"), Map.of()));
        emit("e1", new Event.Finished(Status.OK, 1L, 12L, 10L, 2048L));
        emit("e2", new Event.Queued("1/0"));
        emit("e2", new Event.Started(2));
        emit("e2", new Event.Error("ZeroDivisionError", "division by zero", List.of("Traceback", "\u001b[31mZeroDivisionError\u001b[0m")));
        emit("e2", new Event.Finished(Status.ERROR, 2L, 3L, 2L, null));

        Map<String, Object> nb = exported();
        assertThat(nb.get("nbformat")).isEqualTo(4L);
        assertThat(nb.get("nbformat_minor")).isEqualTo(5L);
        List<Map<String, Object>> cells = list(nb.get("cells"));
        assertThat(cells).hasSize(2);
        Map<String, Object> first = cells.get(0);
        assertThat(first).containsEntry("id", "e1").containsEntry("cell_type", "code").containsEntry("execution_count", 1L)
                .containsEntry("source", "print('a')\nprint('b', file=sys.stderr)\n1+1");
        List<Map<String, Object>> outputs = list(first.get("outputs"));
        assertThat(outputs).extracting(o -> o.get("output_type")).containsExactly("stream", "stream", "execute_result");
        assertThat(outputs.get(0)).containsEntry("name", "stdout").containsEntry("text", "a\nmore\n");
        assertThat(outputs.get(1)).containsEntry("name", "stderr").containsEntry("text", "b\n");
        assertThat(outputs.get(2)).containsEntry("execution_count", 1L).containsEntry("data", Map.of("text/plain", "2"));
        assertThat(map(map(first.get("metadata")).get("codeinterp"))).containsEntry("status", "ok").containsEntry("duration_ms", 12L);

        Map<String, Object> error = list(cells.get(1).get("outputs")).get(0);
        assertThat(error).containsEntry("output_type", "error").containsEntry("ename", "ZeroDivisionError")
                .containsEntry("evalue", "division by zero");
        assertThat((List<Object>) error.get("traceback")).hasSize(2);
    }

    @Test
    void an_updated_display_is_exported_as_its_last_update_even_from_a_later_cell_and_a_clear_keeps_what_came_after() {
        emit("e1", new Event.Queued("h = display('step 1', display_id=True)"));
        emit("e1", new Event.DisplayData(Map.of("text/plain", "'step 1'"), Map.of(), "bar"));
        emit("e1", new Event.DisplayData(Map.of("text/plain", "'untouched'"), Map.of(), "other"));
        emit("e1", new Event.UpdateDisplayData(Map.of("text/plain", "'step 2'"), Map.of(), "bar"));
        emit("e2", new Event.Queued("h.update('done')"));
        emit("e2", new Event.UpdateDisplayData(Map.of("text/plain", "'done'"), Map.of(), "bar"));
        emit("e2", new Event.UpdateDisplayData(Map.of("text/plain", "'nobody shows me'"), Map.of(), "nowhere"));
        emit("e3", new Event.Queued("print('old'); clear_output(); print('new')"));
        emit("e3", new Event.Stream(StreamName.STDOUT, "old\n"));
        emit("e3", new Event.ClearOutput(false));
        emit("e3", new Event.Stream(StreamName.STDOUT, "new\n"));

        List<Map<String, Object>> cells = list(exported().get("cells"));
        assertThat(list(cells.get(0).get("outputs"))).extracting(o -> o.get("data"))
                .containsExactly(Map.of("text/plain", "'done'"), Map.of("text/plain", "'untouched'"));
        assertThat(list(cells.get(1).get("outputs"))).isEmpty();
        assertThat(list(cells.get(2).get("outputs"))).extracting(o -> o.get("text")).containsExactly("new\n");
    }

    @Test
    void images_stay_base64_and_json_types_become_json_values() {
        emit("e1", new Event.Queued("plot()"));
        emit("e1", new Event.DisplayData(Map.of("image/png", "iVBORw0KGgo=", "text/plain", "<Figure>"), Map.of()));
        emit("e1", new Event.DisplayData(Map.of("application/json", "{\"a\": [1, 2]}",
                "application/vnd.plotly.v1+json", Map.of("data", List.of()), "text/html", "<b>x</b>"), Map.of()));
        emit("e1", new Event.Finished(Status.OK, 1L, null, null, null));

        List<Map<String, Object>> outputs = list(list(exported().get("cells")).get(0).get("outputs"));
        assertThat(map(outputs.get(0).get("data"))).containsEntry("image/png", "iVBORw0KGgo=");
        Map<String, Object> data = map(outputs.get(1).get("data"));
        assertThat(data.get("application/json")).isEqualTo(Map.of("a", List.of(1L, 2L)));
        assertThat(data.get("application/vnd.plotly.v1+json")).isEqualTo(Map.of("data", List.of()));
        assertThat(data.get("text/html")).isEqualTo("<b>x</b>");
        assertThat(outputs.get(1)).containsEntry("metadata", Map.of());
    }

    @Test
    void the_notebook_language_is_most_cells_language_and_each_cell_names_its_own() {
        emit("e1", new Event.Queued("console.log(1)", Language.JAVASCRIPT));
        emit("e2", new Event.Queued("echo hi", Language.BASH));
        emit("e3", new Event.Queued("let x = 2", Language.JAVASCRIPT));

        Map<String, Object> nb = exported();
        Map<String, Object> metadata = map(nb.get("metadata"));
        assertThat(map(metadata.get("kernelspec"))).containsEntry("name", "javascript").containsEntry("language", "javascript");
        assertThat(map(metadata.get("language_info"))).containsEntry("name", "javascript");
        assertThat(list(nb.get("cells"))).extracting(c -> map(map(c.get("metadata")).get("codeinterp")).get("language"))
                .containsExactly("javascript", "bash", "javascript");
    }

    @Test
    void an_empty_conversation_is_an_empty_python_notebook() {
        Map<String, Object> nb = exported();
        assertThat(list(nb.get("cells"))).isEmpty();
        assertThat(map(map(nb.get("metadata")).get("kernelspec"))).containsEntry("name", "python3");
    }

    @Test
    void a_cell_that_never_ran_has_no_execution_count_and_idle_restarts_are_left_out() {
        emit("", new Event.Restarted("idle"));
        emit("e1", new Event.Queued("x"));
        emit("e1", new Event.Restarted("out of memory"));
        emit("e1", new Event.Truncated(1024));
        emit("e1", new Event.Artifact("out.csv", 3, "text/csv", "/api/v1/sessions/s/files/out.csv"));
        emit("e1", new Event.Finished(Status.OOM, null, null, null, null));

        List<Map<String, Object>> cells = list(exported().get("cells"));
        assertThat(cells).hasSize(1);
        assertThat(cells.get(0)).containsEntry("execution_count", null);
        assertThat(list(cells.get(0).get("outputs"))).singleElement().satisfies(o -> {
            assertThat(o).containsEntry("name", "stderr");
            assertThat((String) o.get("text")).contains("restarted: out of memory").contains("truncated at 1024 bytes");
        });
        assertThat(map(map(cells.get(0).get("metadata")).get("codeinterp"))).containsEntry("status", "oom")
                .containsEntry("files", List.of("out.csv"));
    }

    @Test
    void a_session_resumed_from_disk_leaves_no_trace_in_the_notebook_between_cells_or_in_one() {
        emit("e1", new Event.Queued("x = 41"));
        emit("e1", new Event.Finished(Status.OK, 1L, 2L, null, null));
        String without = NotebookExport.of(events);
        events.clear();
        emit("e1", new Event.Queued("x = 41"));
        emit("e1", new Event.Resumed(300)); // no server sends this inside a cell today; if one did, still nothing
        emit("e1", new Event.Finished(Status.OK, 1L, 2L, null, null));
        emit("", new Event.Resumed(412));

        assertThat(NotebookExport.of(events)).isEqualTo(without);
    }

    @Test
    void execution_ids_that_are_not_valid_cell_ids_are_replaced() {
        emit("has space", new Event.Queued("1"));
        emit("x".repeat(65), new Event.Queued("2"));
        emit("ok-id_1", new Event.Queued("3"));
        assertThat(list(exported().get("cells"))).extracting(c -> c.get("id")).containsExactly("cell-1", "cell-2", "ok-id_1");
    }

    @Test
    void an_exported_notebook_imports_back_to_the_same_cells() {
        emit("e1", new Event.Queued("import os\nprint(os.getcwd())\n"));
        emit("e1", new Event.Stream(StreamName.STDOUT, "<script>alert(1)</script>"));
        emit("e2", new Event.Queued("ls", Language.BASH));
        ImportedNotebook back = NotebookImport.read(NotebookExport.of(events));
        assertThat(back.cells()).containsExactly(new NotebookCell("import os\nprint(os.getcwd())\n", Language.PYTHON),
                new NotebookCell("ls", Language.BASH));
        assertThat(back.cellsWithOutputs()).isEqualTo(1);
    }

    @Test
    void an_assistant_turn_exports_as_markdown_around_the_code_cell_it_ran() {
        emit("a1", new Event.Prompt("What is 6 * 7?"));
        emit("a1", new Event.AssistantText("Let me "));
        emit("a1", new Event.AssistantText("compute it."));
        emit("c1", new Event.Queued("print(6 * 7)"));
        emit("a1", new Event.ToolCall("call-1", "run_code", "{\"code\":\"print(6 * 7)\"}", "c1"));
        emit("c1", new Event.Started(1));
        emit("c1", new Event.Stream(StreamName.STDOUT, "42\n"));
        emit("c1", new Event.Finished(Status.OK, 1L, 5L, 4L, null));
        emit("a1", new Event.ToolResult("call-1", "status: ok\nstdout:\n42\n"));
        emit("a1", new Event.AssistantText("The code printed 42, "));
        emit("a1", new Event.AssistantText("so the answer is 42."));
        emit("a1", new Event.AssistantDone(AssistantStatus.ANSWERED, null));

        List<Map<String, Object>> cells = list(exported().get("cells"));
        assertThat(cells).extracting(c -> c.get("cell_type")).containsExactly("markdown", "markdown", "code", "markdown");
        assertThat(cells).extracting(c -> c.get("source")).containsExactly("**You:** What is 6 * 7?", "Let me compute it.",
                "print(6 * 7)", "The code printed 42, so the answer is 42.");
        assertThat(cells).extracting(c -> c.get("id")).containsExactly("a1-prompt", "a1-answer", "c1", "a1-answer-2");
        assertThat(map(map(cells.get(0).get("metadata")).get("codeinterp"))).containsEntry("role", "user");
        assertThat(map(map(cells.get(3).get("metadata")).get("codeinterp"))).containsEntry("role", "assistant");
        assertThat(cells.get(0)).doesNotContainKey("outputs").doesNotContainKey("execution_count");
    }

    @Test
    void an_assistant_turn_that_failed_says_why_in_its_answer_and_a_blank_answer_is_left_out() {
        emit("a1", new Event.Prompt("hi"));
        emit("a1", new Event.AssistantText("\n"));
        emit("c1", new Event.Queued("import time; time.sleep(30)"));
        emit("c1", new Event.Finished(Status.INTERRUPTED, null, 5L, 4L, null));
        emit("a1", new Event.AssistantDone(AssistantStatus.STOPPED, "stopped by the user"));
        List<Map<String, Object>> cells = list(exported().get("cells"));
        assertThat(cells).extracting(c -> c.get("source")).containsExactly("**You:** hi", "import time; time.sleep(30)",
                "*The assistant stopped (stopped): stopped by the user*");
    }

    @Test
    void a_notebook_is_named_after_its_conversation_not_after_the_node_the_session_started_on() {
        assertThat(NotebookExport.fileName("n2.Qk3vX9aBcDeFgHiJkLmNoP")).isEqualTo("codeinterp-Qk3vX9aB.ipynb");
        assertThat(NotebookExport.fileName("Qk3vX9aBcDeFgHiJkLmNoP")).isEqualTo("codeinterp-Qk3vX9aB.ipynb");
        assertThat(NotebookExport.fileName("local-conversation/../x")).isEqualTo("codeinterp-local-co.ipynb");
    }
}
