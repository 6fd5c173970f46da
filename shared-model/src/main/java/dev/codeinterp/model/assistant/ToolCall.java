package dev.codeinterp.model.assistant;

/** A tool call as the model sent it: {@code arguments} is JSON text, possibly malformed. */
public record ToolCall(String id, String name, String arguments) {
}
