package dev.codeinterp.model.assistant;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OpenAI's chat-completions wire format (an outside protocol, not ours: it lives here, beside the loop both modes run, read and
 * written with the shared JSON codec): the streamed request, its chunks, and error bodies.
 */
public final class OpenAiWire {
    /** Longer upstream error texts are cut: they are shown to people and may echo anything. */
    public static final int MAX_ERROR_CHARS = 300;

    private OpenAiWire() {
    }

    public static String request(String model, List<ChatMessage> messages, List<Object> tools, int maxTokens) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("model", model);
        List<Object> encoded = new ArrayList<>();
        for (ChatMessage m : messages) {
            encoded.add(message(m));
        }
        body.put("messages", encoded);
        body.put("tools", tools);
        body.put("stream", true);
        body.put("max_tokens", (long) maxTokens);
        return Json.write(body);
    }

    private static Map<String, Object> message(ChatMessage m) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("role", m.role());
        out.put("content", m.content() == null || m.content().isEmpty() && !m.toolCalls().isEmpty() ? null : m.content());
        if (!m.toolCalls().isEmpty()) {
            List<Object> calls = new ArrayList<>();
            for (ToolCall c : m.toolCalls()) {
                Map<String, Object> function = new LinkedHashMap<>();
                function.put("name", c.name());
                function.put("arguments", c.arguments());
                Map<String, Object> call = new LinkedHashMap<>();
                call.put("id", c.id());
                call.put("type", "function");
                call.put("function", function);
                calls.add(call);
            }
            out.put("tool_calls", calls);
        }
        if (m.toolCallId() != null) {
            out.put("tool_call_id", m.toolCallId());
        }
        return out;
    }

    /** What one chunk adds: text, tool-call fragments (into {@code calls}), and a finish reason if it ends. */
    public record Chunk(String text, String finishReason) {
    }

    public static Chunk chunk(String data, ToolCallAssembler calls) {
        JsonObject o;
        try {
            o = JsonObject.parse(data);
        } catch (JsonException e) {
            throw new AssistantException("The model endpoint sent a malformed stream chunk (" + e.getMessage() + ").");
        }
        if (o.has("error")) {
            throw new AssistantException("The model endpoint reported an error: " + errorText(o.asMap().get("error")));
        }
        StringBuilder text = new StringBuilder();
        String finish = null;
        try {
            for (JsonObject choice : o.objectList("choices")) {
                if (choice.optInteger("index", 0) != 0) {
                    continue; // we ask for one choice
                }
                JsonObject delta = choice.optObject("delta");
                if (delta.has("content")) {
                    text.append(delta.string("content"));
                }
                for (JsonObject call : delta.objectList("tool_calls")) {
                    JsonObject function = call.optObject("function");
                    calls.add(call.optInteger("index", 0), call.optString("id", null), function.optString("name", null),
                            function.optString("arguments", null));
                }
                finish = choice.optString("finish_reason", finish);
            }
        } catch (JsonException e) {
            throw new AssistantException("The model endpoint sent a chunk that cannot be read (" + e.getMessage() + ").");
        }
        return new Chunk(text.toString(), finish);
    }

    /** The readable part of an error body: OpenAI's {@code {"error": {"message"}}}, a string, or plain text. */
    public static String errorBody(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        try {
            Object parsed = Json.parse(body);
            if (parsed instanceof Map<?, ?> map) {
                Object error = map.containsKey("error") ? map.get("error") : map.containsKey("detail") ? map.get("detail")
                        : map.get("message");
                if (error != null) {
                    return errorText(error);
                }
            }
        } catch (JsonException notJson) {
            // plain text, HTML from a proxy, ...
        }
        return clean(body);
    }

    private static String errorText(Object error) {
        if (error instanceof Map<?, ?> map && map.get("message") instanceof String message) {
            return clean(message);
        }
        return clean(error instanceof String s ? s : Json.write(error));
    }

    /** One line, no control characters, bounded. */
    public static String clean(String text) {
        String one = text.replaceAll("\\p{Cntrl}+", " ").strip();
        return one.length() > MAX_ERROR_CHARS ? one.substring(0, MAX_ERROR_CHARS) + "…" : one;
    }
}
