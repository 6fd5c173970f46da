package dev.codeinterp.server.assistant;

import java.util.List;

/**
 * One message of the conversation the model sees: {@code user}, {@code assistant} (text and/or
 * tool calls), or {@code tool} (a result, for {@code toolCallId}).
 */
record ChatMessage(String role, String content, List<ToolCall> toolCalls, String toolCallId) {
    ChatMessage {
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    static ChatMessage system(String text) {
        return new ChatMessage("system", text, List.of(), null);
    }

    static ChatMessage user(String text) {
        return new ChatMessage("user", text, List.of(), null);
    }

    static ChatMessage assistant(String text, List<ToolCall> calls) {
        return new ChatMessage("assistant", text, calls, null);
    }

    static ChatMessage tool(String callId, String text) {
        return new ChatMessage("tool", text, List.of(), callId);
    }
}
