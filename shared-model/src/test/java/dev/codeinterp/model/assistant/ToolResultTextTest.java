package dev.codeinterp.model.assistant;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What a cell's output tells the model: text as text, pictures by type and size, bounded. */
class ToolResultTextTest {
    @Test
    void streams_values_errors_and_files_are_told_and_image_bytes_are_not_sent() {
        String png = "iVBORw0KGgo".repeat(1000);
        String text = ToolResultText.of(List.of(
                new Event.Stream(StreamName.STDOUT, "rows: 3\n"),
                new Event.Stream(StreamName.STDERR, "warning: old pandas"),
                new Event.DisplayData(Map.of("image/png", png), Map.of()),
                new Event.ExecuteResult(2, Map.of("text/plain", "42", "text/html", "<b>42</b>"), Map.of()),
                new Event.Error("ValueError", "bad", List.of("\u001b[31mValueError\u001b[0m: bad")),
                new Event.Artifact("chart.png", 2048, "image/png", "/x"),
                new Event.Finished(Status.ERROR, 2L, 10L, 5L, null)), 10_000);

        assertThat(text).startsWith("status: error\n")
                .contains("stdout:\nrows: 3\n").contains("stderr:\nwarning: old pandas\n")
                .contains("[image/png, " + png.length() / 4 * 3 + " bytes, not shown]")
                .contains("result:\n42\n[text/html, 9 characters, not shown]")
                .contains("error: ValueError: bad\nValueError: bad\n")
                .contains("file written: chart.png (image/png, 2048 bytes)")
                .doesNotContain("iVBOR").doesNotContain("\u001b");
    }

    @Test
    void a_resume_from_disk_tells_the_model_nothing_as_its_variables_are_all_there_and_a_restart_is_told() {
        List<Event> plain = List.of(new Event.Stream(StreamName.STDOUT, "42\n"), new Event.Finished(Status.OK, 3L, 5L, 1L, null));
        List<Event> resumed = List.of(new Event.Resumed(412), new Event.Stream(StreamName.STDOUT, "42\n"),
                new Event.Finished(Status.OK, 3L, 5L, 1L, null));

        assertThat(ToolResultText.of(resumed, 10_000)).isEqualTo(ToolResultText.of(plain, 10_000)).doesNotContain("resumed");
        assertThat(ToolResultText.of(List.of(new Event.Restarted("its suspended state was evicted"),
                new Event.Finished(Status.OK, 1L, 1L, 1L, null)), 10_000)).contains("its state is gone");
    }

    @Test
    void output_past_the_budget_keeps_its_start_and_end_and_says_what_was_cut() {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            out.append("line ").append(i).append('\n');
        }
        String text = ToolResultText.of(List.of(new Event.Stream(StreamName.STDOUT, out.toString()),
                new Event.Error("KeyError", "'price'", List.of()), new Event.Finished(Status.ERROR, 1L, 1L, 1L, null)), 1000);

        assertThat(text.length()).isLessThanOrEqualTo(1000);
        assertThat(text).contains("line 0\n").contains("characters not shown").endsWith("error: KeyError: 'price'\n");
        int shown = text.length() - text.substring(text.indexOf("\n[…"), text.indexOf("…]\n") + 3).length();
        int cut = Integer.parseInt(text.replaceAll("(?s).*\\[… (\\d+) characters not shown.*", "$1"));
        assertThat(shown + cut).isEqualTo(ToolResultText.of(List.of(new Event.Stream(StreamName.STDOUT, out.toString()),
                new Event.Error("KeyError", "'price'", List.of()), new Event.Finished(Status.ERROR, 1L, 1L, 1L, null)),
                Integer.MAX_VALUE).length());
    }
}
