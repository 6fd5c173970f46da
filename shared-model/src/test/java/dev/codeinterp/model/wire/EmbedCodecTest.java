package dev.codeinterp.model.wire;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.model.embed.EmbedMessage;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.rest.ExecuteResponse;
import dev.codeinterp.model.rest.FileEntry;
import dev.codeinterp.model.rest.FileList;
import dev.codeinterp.model.rest.ResultFold;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EmbedCodecTest {
    @Test
    void every_message_survives_a_round_trip() {
        ExecuteResponse result = new ExecuteResponse(true, Status.OK, "hi\n", "", List.of(Map.of("text/plain", "2")),
                List.of(new ExecuteResponse.Image("png", "iVBOR")), null, 0.25, List.of());
        List<EmbedMessage> messages = List.of(
                new EmbedMessage.Run("1", "print(1)", "python"),
                new EmbedMessage.SetCode("2", "x = 1"),
                new EmbedMessage.GetCode("3"),
                new EmbedMessage.SetTheme("4", "dark"),
                new EmbedMessage.SetOptions("5", true, "output", 300L),
                new EmbedMessage.SetOptions("5b", null, null, null),
                new EmbedMessage.Reset("6"),
                new EmbedMessage.Clear("6b", false),
                new EmbedMessage.Clear("6c", true),
                new EmbedMessage.Hello(1, List.of("run", "stream")),
                new EmbedMessage.Ready("server", "Server · runc"),
                new EmbedMessage.StatusChange("connected"),
                new EmbedMessage.Stream("1", "stdout", "tick\n"),
                new EmbedMessage.Stream(null, "stderr", "typed in the widget\n"),
                new EmbedMessage.Display("1", Map.of("text/plain", "<Figure>")),
                new EmbedMessage.Finished("1", "ok"),
                new EmbedMessage.FileWritten("1", "chart.png", 2048, "image/png"),
                new EmbedMessage.InputRequest("1", "name? ", false),
                new EmbedMessage.InputRequest(null, "Password: ", true),
                new EmbedMessage.Resize(240),
                new EmbedMessage.CodeChange("y = 2"),
                new EmbedMessage.Reply("1", result, null),
                new EmbedMessage.Reply("3", null, "x = 1"),
                new EmbedMessage.Failure("9", "the widget was destroyed"),
                new EmbedMessage.PutFile("10", "data.csv"),
                new EmbedMessage.ListFiles("11"),
                new EmbedMessage.GetFile("12", "out.png"),
                new EmbedMessage.FileList("11", List.of(new FileEntry("data.csv", 12, 1700000000000L, "text/csv", ""))),
                new EmbedMessage.FileContent("12", "out.png", "image/png"));
        for (EmbedMessage m : messages) {
            assertThat(EmbedCodec.decode(WireCodec.encode(m))).as(m.type().wire()).isEqualTo(m);
        }
    }

    @Test
    void a_run_result_has_the_rest_one_shot_shape() {
        ExecuteResponse result = new ExecuteResponse(false, Status.ERROR, "", "", List.of(), List.of(),
                new ExecuteResponse.ErrorInfo("ZeroDivisionError", "division by zero", "tb"), 0.1, List.of());
        String json = WireCodec.encode(new EmbedMessage.Reply("7", result, null));
        assertThat(json).contains("\"result\":" + WireCodec.encode(result));
    }

    @Test
    void a_widget_message_is_not_taken_as_a_request_and_garbage_is_refused() {
        assertThatThrownBy(() -> WireCodec.decodeEmbedRequest(WireCodec.encode(new EmbedMessage.Resize(1))))
                .isInstanceOf(JsonException.class);
        assertThatThrownBy(() -> WireCodec.decodeEmbedRequest("{\"type\":\"run\",\"id\":1,\"code\":\"x\"}"))
                .isInstanceOf(JsonException.class);
        assertThatThrownBy(() -> WireCodec.decodeEmbedRequest("{\"type\":\"eval\",\"id\":\"1\"}"))
                .isInstanceOf(JsonException.class);
    }

    @Test
    void the_fold_gives_what_the_rest_api_gives() {
        ResultFold fold = new ResultFold();
        assertThat(fold.add(new Event.Stream(StreamName.STDOUT, "a"), 0)).isNull();
        fold.add(new Event.Stream(StreamName.STDERR, "b"), 0);
        fold.add(new Event.DisplayData(Map.of("image/png", "iVBOR"), Map.of()), 0);
        ExecuteResponse r = fold.add(new Event.Finished(Status.OK, 1L, 5L, 3L, 100L), 0.5);
        assertThat(r.success()).isTrue();
        assertThat(r.stdout()).isEqualTo("a");
        assertThat(r.stderr()).isEqualTo("b");
        assertThat(r.images()).containsExactly(new ExecuteResponse.Image("png", "iVBOR"));
        assertThat(r.executionTime()).isEqualTo(0.5);
    }
}
