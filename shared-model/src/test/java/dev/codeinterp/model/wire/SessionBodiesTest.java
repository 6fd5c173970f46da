package dev.codeinterp.model.wire;

import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.rest.SessionList;
import dev.codeinterp.model.rest.SessionPatch;
import dev.codeinterp.model.rest.SessionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The bodies of a session's description, its title's PATCH and a key's listing: exact JSON, and back again. */
class SessionBodiesTest {
    private static final SessionState TITLED = new SessionState("n1.a", "runsc", SessionState.SUSPENDED, 1000, 2000, "Sales <b>2024</b> \"q\"");
    private static final String TITLED_JSON = "{\"id\":\"n1.a\",\"runtime\":\"runsc\",\"state\":\"suspended\","
            + "\"title\":\"Sales <b>2024</b> \\\"q\\\"\",\"created\":1000,\"last_active\":2000}";

    @Test
    void a_session_state_carries_its_title_as_text() {
        assertThat(WireCodec.encode(TITLED)).isEqualTo(TITLED_JSON);
        assertThat(WireCodec.decodeSessionState(TITLED_JSON)).isEqualTo(TITLED);
    }

    @Test
    void a_session_never_titled_says_title_null() {
        SessionState untitled = new SessionState("s1", "runc", SessionState.RUNNING, 5, 6);
        String json = WireCodec.encode(untitled);
        assertThat(json).isEqualTo("{\"id\":\"s1\",\"runtime\":\"runc\",\"state\":\"running\",\"title\":null,\"created\":5,\"last_active\":6}");
        assertThat(WireCodec.decodeSessionState(json)).isEqualTo(untitled);
        assertThat(WireCodec.decodeSessionState("{\"id\":\"s1\",\"state\":\"running\"}").title()).isNull(); // an older server's answer
    }

    @Test
    void a_listing_holds_session_states_and_the_next_cursor() {
        SessionList page = new SessionList(List.of(TITLED, new SessionState("n1.b", "runsc", SessionState.LOST, 1, 2)), "2000.n1.a");
        String json = WireCodec.encode(page);
        assertThat(json).isEqualTo("{\"sessions\":[" + TITLED_JSON
                + ",{\"id\":\"n1.b\",\"runtime\":\"runsc\",\"state\":\"lost\",\"title\":null,\"created\":1,\"last_active\":2}],"
                + "\"next\":\"2000.n1.a\"}");
        assertThat(WireCodec.decodeSessionList(json)).isEqualTo(page);
        SessionList last = new SessionList(List.of(), null);
        assertThat(WireCodec.encode(last)).isEqualTo("{\"sessions\":[],\"next\":null}");
        assertThat(WireCodec.decodeSessionList(WireCodec.encode(last))).isEqualTo(last);
    }

    @Test
    void a_patch_sets_the_title() {
        SessionPatch patch = new SessionPatch("Q3 <script>alert(1)</script>");
        String json = WireCodec.encode(patch);
        assertThat(json).isEqualTo("{\"title\":\"Q3 <script>alert(1)</script>\"}");
        assertThat(WireCodec.decodeSessionPatch(json)).isEqualTo(patch);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{}", "{\"title\":null}", "{\"title\":5}", "{\"title\":[\"a\"]}", "{\"title\":{}}", "{\"title\":true}",
            "[\"title\"]", "\"title\"", "{\"title\":\"a\"", "", "nonsense"})
    void a_patch_without_a_string_title_is_refused_saying_so(String body) {
        assertThatThrownBy(() -> WireCodec.decodeSessionPatch(body)).isInstanceOf(JsonException.class).hasMessageNotContaining("Exception");
    }

    @Test
    void a_missing_title_is_named_in_the_refusal() {
        assertThatThrownBy(() -> WireCodec.decodeSessionPatch("{\"name\":\"x\"}")).isInstanceOf(JsonException.class)
                .hasMessage("'title' must be a string");
    }
}
