package dev.codeinterp.server.mcp;

/** A tool call the server refuses, with a message for the model; answered as a tool result with {@code isError}. */
final class ToolError extends RuntimeException {
    ToolError(String message) {
        super(message, null, false, false);
    }
}
