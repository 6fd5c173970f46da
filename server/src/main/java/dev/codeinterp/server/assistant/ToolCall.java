package dev.codeinterp.server.assistant;

/** A tool call as the model sent it: {@code arguments} is JSON text, possibly malformed. */
record ToolCall(String id, String name, String arguments) {
}
