package dev.codeinterp.model.assistant;

import dev.codeinterp.model.AssistantStatus;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One streamed answer put together as both modes do: text pieces, split tool-call arguments, the finish reason. */
class CompletionStreamTest {
    private static String chunk(String delta, String finish) {
        return "{\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":" + (finish == null ? "null" : "\"" + finish + "\"") + "}]}";
    }

    @Test
    void text_streams_piece_by_piece_and_split_argument_fragments_join_by_index() {
        List<String> pieces = new ArrayList<>();
        CompletionStream stream = new CompletionStream(pieces::add);
        stream.accept(chunk("{\"content\":\"Let me \"}", null));
        stream.accept(chunk("{\"content\":\"check.\"}", null));
        stream.accept(chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"run_code\",\"arguments\":\"{\\\"code\\\": \\\"print(6\"}}]}", null));
        stream.accept(chunk("{\"tool_calls\":[{\"index\":1,\"id\":\"c2\",\"function\":{\"name\":\"run_code\",\"arguments\":\"{}\"}}]}", null));
        stream.accept(chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\" * 7)\\\\n\\\"}\"}}]}", "tool_calls"));
        assertThat(stream.accept("[DONE]")).isFalse();

        Completion answer = stream.complete();
        assertThat(pieces).containsExactly("Let me ", "check.");
        assertThat(answer.text()).isEqualTo("Let me check.");
        assertThat(answer.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(answer.toolCalls()).containsExactly(new ToolCall("c1", "run_code", "{\"code\": \"print(6 * 7)\\n\"}"),
                new ToolCall("c2", "run_code", "{}"));
        RunCodeCall call = RunCodeCall.of(answer.toolCalls().get(0));
        assertThat(call.code()).isEqualTo("print(6 * 7)\n");
        assertThat(TurnRules.outcome(answer, 0, 3)).isNull();
        assertThat(TurnRules.outcome(answer, 3, 3)).isEqualTo(AssistantStatus.ROUNDS);
    }

    @Test
    void a_stream_cut_before_its_end_an_error_chunk_and_garbage_are_readable_failures() {
        CompletionStream cut = new CompletionStream(p -> { });
        cut.accept(chunk("{\"content\":\"half\"}", null));
        assertThatThrownBy(cut::complete).isInstanceOf(AssistantException.class).hasMessageContaining("before the answer was complete");

        assertThatThrownBy(() -> new CompletionStream(p -> { }).accept("{\"error\":{\"message\":\"model\\u0007overloaded\"}}"))
                .isInstanceOf(AssistantException.class).hasMessage("The model endpoint reported an error: model overloaded");
        assertThatThrownBy(() -> new CompletionStream(p -> { }).accept("{not json"))
                .isInstanceOf(AssistantException.class).hasMessageContaining("malformed stream chunk");
    }

    @Test
    void an_answer_past_the_bound_is_cut_off() {
        CompletionStream stream = new CompletionStream(p -> { });
        String piece = chunk("{\"content\":\"" + "x".repeat(50_000) + "\"}", null);
        assertThatThrownBy(() -> {
            for (int i = 0; i < 5; i++) {
                stream.accept(piece);
            }
        }).isInstanceOf(AssistantException.class).hasMessageContaining("more than " + CompletionStream.MAX_ANSWER_CHARS);
    }

    @Test
    void the_end_of_a_turn_follows_the_answer() {
        assertThat(TurnRules.outcome(new Completion("42", List.of(), FinishReason.STOP), 0, 3)).isEqualTo(AssistantStatus.ANSWERED);
        assertThat(TurnRules.outcome(new Completion("4", List.of(), FinishReason.LENGTH), 1, 3)).isEqualTo(AssistantStatus.LENGTH);
        assertThat(TurnRules.outcome(new Completion("", List.of(), FinishReason.NONE), 0, 3)).isEqualTo(AssistantStatus.ANSWERED);
    }

    @Test
    void broken_run_code_arguments_run_nothing_and_say_what_to_send() {
        RunCodeCall broken = RunCodeCall.of(new ToolCall("c", "run_code", "{\"code\": "));
        assertThat(broken.code()).isNull();
        assertThat(broken.refusal()).startsWith("error: run_code was not run:").contains("\"language\": \"python\"");
        assertThat(RunCodeCall.of(new ToolCall("c", "run_code", "{\"code\": \"1\", \"language\": \"cobol\"}")).refusal())
                .contains("cobol");
        assertThat(RunCodeCall.unknownTool(new ToolCall("c", "rm\u001b[2J -rf", "{}"), "run_code"))
                .isEqualTo("error: there is no tool 'rm [2J -rf'; the tools are run_code");
    }
}
