package dev.codeinterp.model.wire;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.local.RuntimeFrameMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A cell's language is part of its history: the queued event and the local frame's execute carry it. */
class CellLanguageCodecTest {

    @Test
    void a_queued_event_keeps_its_language_through_the_codec() {
        for (Language language : Language.values()) {
            SessionEvent queued = new SessionEvent(1, "e1", 5L, new Event.Queued("echo hi", language));
            String json = WireCodec.encode(queued);
            if (language == Language.PYTHON) { // absent means Python, so rows and frames from before languages read alike
                assertThat(json).doesNotContain("\"language\"");
            } else {
                assertThat(json).contains("\"language\":\"" + language.wire() + "\"");
            }
            assertThat(WireCodec.decodeSessionEvent(json)).isEqualTo(queued);
        }
    }

    @Test
    void a_queued_event_stored_before_languages_existed_reads_as_python() {
        SessionEvent old = WireCodec.decodeSessionEvent(
                "{\"seq\":1,\"execution_id\":\"e1\",\"time\":5,\"type\":\"queued\",\"code\":\"1+1\"}");
        assertThat(((Event.Queued) old.event()).language()).isEqualTo(Language.PYTHON);
        assertThat(new Event.Queued("x").language()).isEqualTo(Language.PYTHON);
        assertThat(new Event.Queued("x", null).language()).isEqualTo(Language.PYTHON);
    }

    @Test
    void a_stored_queued_event_naming_an_unknown_language_is_refused_not_run_as_python() {
        assertThatThrownBy(() -> WireCodec.decodeSessionEvent(
                "{\"seq\":1,\"execution_id\":\"e1\",\"time\":5,\"type\":\"queued\",\"code\":\"x\",\"language\":\"<img src=x>\"}"))
                .isInstanceOf(JsonException.class).hasMessageContaining("is not supported");
        assertThatThrownBy(() -> WireCodec.decodeSessionEvent(
                "{\"seq\":1,\"execution_id\":\"e1\",\"time\":5,\"type\":\"queued\",\"code\":\"x\",\"language\":7}"))
                .isInstanceOf(JsonException.class);
    }

    @Test
    void the_local_frame_execute_carries_the_language_and_defaults_to_python() {
        RuntimeFrameMessage.Execute js = new RuntimeFrameMessage.Execute("c1", "console.log(1)", Language.JAVASCRIPT);
        String json = WireCodec.encode(js);
        assertThat(json).contains("\"language\":\"javascript\"");
        assertThat(RuntimeFrameCodec.decode(json)).isEqualTo(js);
        assertThat(RuntimeFrameCodec.decode("{\"type\":\"execute\",\"id\":\"c1\",\"code\":\"1\"}"))
                .isEqualTo(new RuntimeFrameMessage.Execute("c1", "1", Language.PYTHON));
    }
}
