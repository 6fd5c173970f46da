package dev.codeinterp.model.wire;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.json.JsonException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A queued event keeps its cell's language, so history (and an exported notebook) knows it; absent means Python. */
class QueuedLanguageTest {
    @Test
    void a_javascript_cell_keeps_its_language_through_the_stored_form() {
        SessionEvent e = new SessionEvent(1, "e1", 5, new Event.Queued("console.log(1)", Language.JAVASCRIPT));
        String json = WireCodec.encode(e);
        assertThat(json).contains("\"language\":\"javascript\"");
        assertThat(WireCodec.decodeSessionEvent(json)).isEqualTo(e);
    }

    @Test
    void a_python_cell_is_stored_as_before_and_old_rows_read_as_python() {
        String json = WireCodec.encode(new SessionEvent(1, "e1", 5, new Event.Queued("1+1")));
        assertThat(json).isEqualTo("{\"seq\":1,\"execution_id\":\"e1\",\"time\":5,\"type\":\"queued\",\"code\":\"1+1\"}");
        assertThat(((Event.Queued) WireCodec.decodeSessionEvent(json).event()).language()).isEqualTo(Language.PYTHON);
    }

    @Test
    void an_unknown_language_in_a_stored_event_is_refused() {
        assertThatThrownBy(() -> WireCodec.decodeSessionEvent(
                "{\"seq\":1,\"execution_id\":\"e1\",\"time\":5,\"type\":\"queued\",\"code\":\"x\",\"language\":\"cobol\"}"))
                .isInstanceOf(JsonException.class).hasMessageContaining("cobol");
    }
}
