package dev.codeinterp.server.assistant;

import java.util.List;

/** One streamed answer of the model, assembled: its text, its tool calls in order, and why it ended. */
record Completion(String text, List<ToolCall> toolCalls, FinishReason finishReason) {
    Completion {
        toolCalls = List.copyOf(toolCalls);
    }
}
