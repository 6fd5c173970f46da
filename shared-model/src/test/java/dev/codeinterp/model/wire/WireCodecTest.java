package dev.codeinterp.model.wire;

import dev.codeinterp.model.AssistantStatus;
import dev.codeinterp.model.Event;
import dev.codeinterp.model.EventType;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.rest.ExecuteRequest;
import dev.codeinterp.model.runner.CellInput;
import dev.codeinterp.model.runner.RunnerInstall;
import dev.codeinterp.model.runner.RunnerMessage;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WireCodecTest {

    @Test
    void every_event_type_survives_a_round_trip_through_a_session_event_frame() {
        List<Event> events = List.of(
                new Event.Queued("print('hi')"),
                new Event.Started(3),
                new Event.Stream(StreamName.STDERR, "oops\n"),
                new Event.DisplayData(Map.of("image/png", "iVBOR"), Map.of()),
                new Event.ExecuteResult(3, Map.of("text/plain", "42"), Map.of()),
                new Event.Error("ValueError", "bad", List.of("\u001b[31mValueError\u001b[0m: bad")),
                new Event.Truncated(1 << 20),
                new Event.Artifact("out.csv", 12, "text/csv", "/files/out.csv"),
                new Event.Restarted("restart requested"),
                new Event.Resumed(412),
                new Event.Finished(Status.TIMEOUT, 3L, 2001L, 1990L, null),
                new Event.Install(Language.JAVASCRIPT, List.of("is-odd"), 412, false),
                new Event.Prompt("What is the trend in sales.csv?"),
                new Event.AssistantText("The trend "),
                new Event.ToolCall("call-1", "run_code", "{\"code\": \"print(1)\"}", "cell-7"),
                new Event.ToolCall("call-2", "list_files", "{}", null),
                new Event.ToolResult("call-1", "stdout:\n1\n"),
                new Event.AssistantDone(AssistantStatus.ANSWERED, null),
                new Event.AssistantDone(AssistantStatus.ERROR, "The model endpoint is rate-limiting requests (HTTP 429)."),
                new Event.UpdateDisplayData(Map.of("text/plain", "'v2'"), Map.of(), "bar"),
                new Event.ClearOutput(true),
                new Event.InputRequest("name? ", false),
                new Event.InputRequest("Password: ", true));
        assertThat(events.stream().map(Event::type).distinct()).containsExactlyInAnyOrder(EventType.values());
        long seq = 1;
        for (Event e : events) {
            SessionEvent se = new SessionEvent(seq++, "exec-1", 1700000000000L, e);
            String frame = WireCodec.encode(new ServerMessage.EventFrame(se));
            assertThat(frame).doesNotContain("\n");
            ServerMessage back = WireCodec.decodeServerMessage(frame);
            assertThat(back).isEqualTo(new ServerMessage.EventFrame(se));
        }
    }

    @Test
    void client_messages_round_trip() {
        for (ClientMessage m : List.of(new ClientMessage.Hello("t0k", 12), new ClientMessage.Execute("1+1", 2.5),
                new ClientMessage.Execute("x", null), new ClientMessage.Interrupt(), new ClientMessage.Restart(),
                new ClientMessage.Prompt("plot sales.csv"), new ClientMessage.Stop(),
                new ClientMessage.InputReply("Ada"), new ClientMessage.InputReply(""))) {
            assertThat(WireCodec.decodeClientMessage(WireCodec.encode(m))).isEqualTo(m);
        }
    }

    @Test
    void packages_ride_on_execute_over_the_websocket_and_rest_and_reach_the_runner_with_their_artifacts() {
        ClientMessage.Execute ws = new ClientMessage.Execute("import x", null, "python", List.of("tabulate", "is-odd"));
        assertThat(WireCodec.decodeClientMessage(WireCodec.encode(ws))).isEqualTo(ws);
        assertThat(((ClientMessage.Execute) WireCodec.decodeClientMessage("{\"type\":\"execute\",\"code\":\"1\"}")).packages()).isEmpty();
        ExecuteRequest rest = new ExecuteRequest("1", "javascript", null, List.of(), List.of("left-pad"));
        assertThat(WireCodec.decodeExecuteRequest(WireCodec.encode(rest))).isEqualTo(rest);
        assertThat(WireCodec.decodeExecuteRequest("{\"code\":\"1\"}").packages()).isEmpty();
        assertThatThrownBy(() -> WireCodec.decodeExecuteRequest("{\"code\":\"1\",\"packages\":[1]}"))
                .hasMessageContaining("'packages' must be a list of strings");
        String line = WireCodec.encodeRunnerExecute("e1", "1", Language.JAVASCRIPT, 10, new RunnerInstall(Language.JAVASCRIPT,
                List.of("is-odd"), true, 3, List.of(new RunnerInstall.Artifact("/packages/ab", "ab", "node_modules/is-odd"))));
        assertThat(line).contains("\"install\":{\"language\":\"javascript\",\"packages\":[\"is-odd\"],\"cached\":true,\"fetch_ms\":3,"
                + "\"artifacts\":[{\"path\":\"/packages/ab\",\"sha256\":\"ab\",\"dest\":\"node_modules/is-odd\"}]}");
    }

    @Test
    void a_cell_language_rides_on_execute_and_unknown_names_are_refused() {
        ClientMessage.Execute js = new ClientMessage.Execute("1", null, "javascript");
        assertThat(WireCodec.decodeClientMessage(WireCodec.encode(js))).isEqualTo(js);
        assertThat(((ClientMessage.Execute) WireCodec.decodeClientMessage("{\"type\":\"execute\",\"code\":\"1\"}")).language()).isNull();
        assertThat(Language.fromWire(null)).isEqualTo(Language.PYTHON);
        assertThat(Language.fromWire("Bash")).isEqualTo(Language.BASH);
        assertThat(WireCodec.encodeRunnerExecute("e1", "echo", Language.BASH, 10)).contains("\"language\":\"bash\"");
        assertThatThrownBy(() -> Language.fromWire("cobol")).hasMessage("language 'cobol' is not supported; use python, javascript or bash");
    }

    @Test
    void a_cells_input_rides_on_the_runner_execute_line_and_replies_carry_their_value() {
        assertThat(WireCodec.encodeRunnerExecute("e1", "input()", Language.PYTHON, 10))
                .doesNotContain("stdin").doesNotContain("interactive");
        assertThat(Json.parseObject(WireCodec.encodeRunnerExecute("e1", "input()", Language.PYTHON, 10, CellInput.lines("a\nb\n"))))
                .containsEntry("stdin", "a\nb\n").doesNotContainKey("interactive");
        assertThat(Json.parseObject(WireCodec.encodeRunnerExecute("e1", "input()", Language.PYTHON, 10, CellInput.ASK)))
                .containsEntry("interactive", true).doesNotContainKey("stdin");
        assertThat(Json.parseObject(WireCodec.encodeRunnerInputReply("x\ny"))).isEqualTo(Map.of("type", "input_reply", "value", "x\ny"));
        assertThat(WireCodec.decodeRunnerLine("{\"type\":\"input_request\",\"id\":\"e1\",\"prompt\":\"q? \",\"password\":true}"))
                .isEqualTo(new RunnerMessage.CellEvent("e1", new Event.InputRequest("q? ", true)));
    }

    @Test
    void an_input_reply_without_a_string_value_is_refused() {
        for (String hostile : List.of("{\"type\":\"input_reply\"}", "{\"type\":\"input_reply\",\"value\":5}",
                "{\"type\":\"input_reply\",\"value\":null}")) {
            assertThatThrownBy(() -> WireCodec.decodeClientMessage(hostile)).isInstanceOf(JsonException.class);
        }
    }

    @Test
    void execute_requests_carry_stdin_lines_only_when_given() {
        ExecuteRequest with = new ExecuteRequest("input()", "python", null, List.of(), "Ada\n");
        assertThat(WireCodec.decodeExecuteRequest(WireCodec.encode(with))).isEqualTo(with);
        ExecuteRequest without = new ExecuteRequest("1", "python", null, List.of());
        assertThat(WireCodec.encode(without)).doesNotContain("stdin");
        assertThat(WireCodec.decodeExecuteRequest(WireCodec.encode(without)).stdin()).isNull();
    }

    @Test
    void a_runner_line_becomes_a_cell_event_or_readiness() {
        assertThat(WireCodec.decodeRunnerLine("{\"type\":\"ready\",\"python\":\"3.11.2\",\"pid\":7}"))
                .isEqualTo(new RunnerMessage.Ready("3.11.2", 7));
        assertThat(WireCodec.decodeRunnerLine("{\"type\":\"stream\",\"id\":\"e1\",\"name\":\"stdout\",\"text\":\"a\"}"))
                .isEqualTo(new RunnerMessage.CellEvent("e1", new Event.Stream(StreamName.STDOUT, "a")));
    }

    @Test
    void hostile_frames_are_refused_with_a_message() {
        for (String hostile : List.of("", "{", "[]", "null", "{\"type\":5}", "{\"type\":\"launch\"}",
                "{\"type\":\"execute\"}", "{\"type\":\"execute\",\"code\":[]}", "{\"type\":\"hello\",\"token\":\"t\",\"last_seq\":\"x\"}",
                "[".repeat(100_000), "{\"a\":1}garbage", "{\"type\":\"execute\",\"code\":\"\u0001\"}",
                "{\"type\":\"execute\",\"code\":\"\\x41\"}", "{\"type\":\"hello\",\"token\":\"t\",\"last_seq\":01}")) {
            assertThatThrownBy(() -> WireCodec.decodeClientMessage(hostile)).isInstanceOf(JsonException.class)
                    .hasMessageNotContaining("Exception");
        }
    }

    @Test
    void a_lone_surrogate_in_a_frame_arrives_as_a_replacement_character_and_the_rest_survives() {
        // the runner escapes a lone surrogate Python printed; a broken client may send one raw
        assertThat(WireCodec.decodeRunnerLine("{\"type\":\"stream\",\"id\":\"e1\",\"name\":\"stdout\",\"text\":\"a\\ud800b\"}"))
                .isEqualTo(new RunnerMessage.CellEvent("e1", new Event.Stream(StreamName.STDOUT, "a\uFFFDb")));
        assertThat(WireCodec.decodeClientMessage("{\"type\":\"execute\",\"code\":\"x = '\udc00'\"}"))
                .isEqualTo(new ClientMessage.Execute("x = '\uFFFD'", null));
    }

    @Test
    void json_escapes_control_characters_and_line_separators() {
        String text = "a\"b\\c\n\u0000\u2028";
        String json = Json.write(Map.of("t", text));
        assertThat(json).doesNotContain("\n").doesNotContain("\u2028");
        assertThat(Json.parseObject(json).get("t")).isEqualTo(text);
    }

    @Test
    void numbers_keep_their_kind() {
        Map<String, Object> m = Json.parseObject("{\"i\": 12, \"d\": 1.5, \"e\": 1e3, \"big\": 123456789012345678901}");
        assertThat(m.get("i")).isEqualTo(12L);
        assertThat(m.get("d")).isEqualTo(1.5);
        assertThat(m.get("e")).isEqualTo(1000.0);
        assertThat(m.get("big")).isInstanceOf(Double.class);
    }
}
