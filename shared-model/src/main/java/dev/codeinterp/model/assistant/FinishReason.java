package dev.codeinterp.model.assistant;

/** Why the model stopped writing ({@code finish_reason}). */
public enum FinishReason {
    STOP,
    TOOL_CALLS,
    LENGTH,
    /** {@code content_filter}, or anything else an endpoint invents. */
    OTHER,
    /** The stream ended ({@code [DONE]}) without a finish reason; treated by what it holds. */
    NONE;

    public static FinishReason fromWire(String name) {
        if (name == null) {
            return NONE;
        }
        switch (name) {
            case "stop":
            case "eos": // some servers' older name
                return STOP;
            case "tool_calls":
            case "function_call":
                return TOOL_CALLS;
            case "length":
                return LENGTH;
            default:
                return OTHER;
        }
    }
}
