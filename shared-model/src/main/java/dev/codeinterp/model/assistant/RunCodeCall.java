package dev.codeinterp.model.assistant;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.json.JsonObject;

/**
 * A {@code run_code} call's arguments read: the code and its language, or, for broken arguments
 * or an unknown language, the text that tells the model what was wrong (and nothing runs).
 */
public record RunCodeCall(String code, Language language, String refusal) {
    public static RunCodeCall of(ToolCall call) {
        try {
            JsonObject args = JsonObject.parse(call.arguments());
            return new RunCodeCall(args.string("code"), Language.fromWire(args.optString("language", null)), null);
        } catch (JsonException | IllegalArgumentException e) {
            return new RunCodeCall(null, null,
                    "error: run_code was not run: " + e.getMessage() + ". Send {\"code\": \"...\", \"language\": \"python\"}.");
        }
    }

    /** What goes back for a call of a tool that does not exist here. */
    public static String unknownTool(ToolCall call, String tools) {
        return "error: there is no tool '" + OpenAiWire.clean(call.name()) + "'; the tools are " + tools;
    }
}
