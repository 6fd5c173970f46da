package dev.codeinterp.model.wire;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.rest.ExecuteResponse;
import dev.codeinterp.model.rest.ResultFold;
import dev.codeinterp.model.runner.RunnerMessage;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** update_display_data and display ids: on the wire as Jupyter carries them, and in the REST fold. */
class DisplayUpdateTest {

    @Test
    void a_display_id_travels_in_transient_as_in_jupyter() {
        String line = "{\"type\":\"update_display_data\",\"id\":\"e1\",\"data\":{\"text/plain\":\"2\"},"
                + "\"metadata\":{},\"transient\":{\"display_id\":\"bar\"}}";
        Event update = ((RunnerMessage.CellEvent) WireCodec.decodeRunnerLine(line)).event();
        assertThat(update).isEqualTo(new Event.UpdateDisplayData(Map.of("text/plain", "2"), Map.of(), "bar"));

        Event shown = new Event.DisplayData(Map.of("text/plain", "1"), Map.of(), "bar");
        String json = WireCodec.encode(new SessionEvent(3, "e1", 0, shown));
        assertThat(json).contains("\"transient\":{\"display_id\":\"bar\"}");
        assertThat(WireCodec.decodeSessionEvent(json).event()).isEqualTo(shown);
    }

    @Test
    void a_display_without_an_id_has_no_transient_field() {
        String json = WireCodec.encode(new SessionEvent(1, "e1", 0, new Event.DisplayData(Map.of("text/plain", "x"), Map.of())));
        assertThat(json).doesNotContain("transient");
        assertThat(((Event.DisplayData) WireCodec.decodeSessionEvent(json).event()).displayId()).isNull();
    }

    @Test
    void an_update_without_a_display_id_is_refused() {
        for (String hostile : List.of(
                "{\"type\":\"update_display_data\",\"id\":\"e1\",\"data\":{}}",
                "{\"type\":\"update_display_data\",\"id\":\"e1\",\"data\":{},\"transient\":{\"display_id\":5}}",
                "{\"type\":\"update_display_data\",\"id\":\"e1\",\"data\":{},\"transient\":\"bar\"}")) {
            assertThatThrownBy(() -> WireCodec.decodeRunnerLine(hostile)).isInstanceOf(JsonException.class);
        }
    }

    @Test
    void the_rest_answer_shows_each_display_as_its_last_update() {
        ResultFold fold = new ResultFold();
        fold.add(new Event.DisplayData(Map.of("text/plain", "0%"), Map.of(), "progress"), 0);
        fold.add(new Event.DisplayData(Map.of("text/plain", "other"), Map.of()), 0);
        fold.add(new Event.UpdateDisplayData(Map.of("text/plain", "50%"), Map.of(), "progress"), 0);
        fold.add(new Event.UpdateDisplayData(Map.of("image/png", "iVBO", "text/plain", "done"), Map.of(), "progress"), 0);
        fold.add(new Event.UpdateDisplayData(Map.of("text/plain", "elsewhere"), Map.of(), "an-earlier-cells"), 0);
        ExecuteResponse answer = fold.add(new Event.Finished(Status.OK, 1L, 1L, null, null), 0.1);
        assertThat(answer.results()).containsExactly(Map.of("image/png", "iVBO", "text/plain", "done"), Map.of("text/plain", "other"));
        assertThat(answer.images()).containsExactly(new ExecuteResponse.Image("png", "iVBO"));
    }

    @Test
    void clear_output_travels_with_its_wait_flag() {
        Event clear = ((RunnerMessage.CellEvent) WireCodec.decodeRunnerLine(
                "{\"type\":\"clear_output\",\"id\":\"e1\",\"wait\":true}")).event();
        assertThat(clear).isEqualTo(new Event.ClearOutput(true));
        String json = WireCodec.encode(new SessionEvent(2, "e1", 0, clear));
        assertThat(json).contains("\"wait\":true");
        assertThat(WireCodec.decodeSessionEvent(json).event()).isEqualTo(clear);
        assertThatThrownBy(() -> WireCodec.decodeRunnerLine("{\"type\":\"clear_output\",\"id\":\"e1\",\"wait\":\"yes\"}"))
                .isInstanceOf(JsonException.class);
    }

    @Test
    void the_rest_answer_keeps_what_was_shown_after_the_last_clear() {
        ResultFold fold = new ResultFold();
        fold.add(new Event.Stream(StreamName.STDOUT, "progress 1\n"), 0);
        fold.add(new Event.DisplayData(Map.of("text/plain", "chart 1"), Map.of()), 0);
        fold.add(new Event.ClearOutput(false), 0);
        fold.add(new Event.Stream(StreamName.STDOUT, "progress 2\n"), 0);
        fold.add(new Event.ClearOutput(true), 0);
        fold.add(new Event.ClearOutput(true), 0);
        fold.add(new Event.Stream(StreamName.STDERR, "done\n"), 0);
        fold.add(new Event.ClearOutput(true), 0); // nothing follows: what was shown stays
        ExecuteResponse answer = fold.add(new Event.Finished(Status.OK, 1L, 1L, null, null), 0.1);
        assertThat(answer.stdout()).isEmpty();
        assertThat(answer.stderr()).isEqualTo("done\n");
        assertThat(answer.results()).isEmpty();
    }
}
