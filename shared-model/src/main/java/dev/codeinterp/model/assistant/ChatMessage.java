package dev.codeinterp.model.assistant;

import java.util.List;

/**
 * One message of the conversation the model sees: {@code user}, {@code assistant} (text and/or
 * tool calls), or {@code tool} (a result, for {@code toolCallId}).
 */
public record ChatMessage(String role, String content, List<ToolCall> toolCalls, String toolCallId) {
    public ChatMessage {
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    public static ChatMessage system(String text) {
        return new ChatMessage("system", text, List.of(), null);
    }

    public static ChatMessage user(String text) {
        return new ChatMessage("user", text, List.of(), null);
    }

    public static ChatMessage assistant(String text, List<ToolCall> calls) {
        return new ChatMessage("assistant", text, calls, null);
    }

    public static ChatMessage tool(String callId, String text) {
        return new ChatMessage("tool", text, List.of(), callId);
    }
}
