package dev.codeinterp.model.assistant;

import java.util.List;

/** One streamed answer of the model, assembled: its text, its tool calls in order, and why it ended. */
public record Completion(String text, List<ToolCall> toolCalls, FinishReason finishReason) {
    public Completion {
        toolCalls = List.copyOf(toolCalls);
    }
}
