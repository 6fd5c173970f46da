package dev.codeinterp.web.local;

import dev.codeinterp.model.assistant.EndpointOrigin;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.web.bindings.AssistantRelay;
import dev.codeinterp.web.bindings.Browser;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The model endpoint the person configured for local mode: an OpenAI-compatible base URL (e.g.
 * Ollama's {@code http://localhost:11434/v1}), a model, an optional API key. Kept in this browser's
 * localStorage only; the prompts and the code's output of a local conversation go to its origin.
 */
public record LocalEndpoint(String baseUrl, String model, String apiKey, String origin) {
    private static final String KEY = "codeinterp.local-endpoint";

    /** The kept endpoint, or null when none is (or what is kept no longer passes the checks). */
    public static LocalEndpoint load() {
        String kept = Browser.storageGet(KEY);
        if (kept == null) {
            return null;
        }
        try {
            JsonObject o = JsonObject.parse(kept);
            Checked checked = check(o.optString("base_url", ""), o.optString("model", ""), o.optString("api_key", ""));
            return checked.endpoint();
        } catch (RuntimeException e) { // damaged or hand-edited: as if none were kept
            return null;
        }
    }

    /** The endpoint, or the sentence saying what is wrong with the fields. */
    public record Checked(LocalEndpoint endpoint, String problem) {
    }

    public static Checked check(String baseUrl, String model, String apiKey) {
        String base = baseUrl == null ? "" : baseUrl.strip();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        String origin = base.isEmpty() ? "" : AssistantRelay.originOf(base);
        if (origin.isEmpty() || !EndpointOrigin.valid(origin) || base.contains("?") || base.contains("#")) {
            return new Checked(null, "The base URL must be an http or https address such as http://localhost:11434/v1 "
                    + "(no user name, query or fragment).");
        }
        String name = model == null ? "" : model.strip();
        if (name.isEmpty() || name.length() > 200) {
            return new Checked(null, "Name the model, e.g. llama3.1 or qwen2.5-coder.");
        }
        String key = apiKey == null ? "" : apiKey.strip();
        if (key.length() > 4096 || !key.matches("[\\x21-\\x7e]*")) {
            return new Checked(null, "The API key must be plain printable characters without spaces.");
        }
        return new Checked(new LocalEndpoint(base, name, key, origin), null);
    }

    public void save() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("base_url", baseUrl);
        o.put("model", model);
        o.put("api_key", apiKey);
        Browser.storageSet(KEY, Json.write(o));
    }

    public static void forget() {
        Browser.storageRemove(KEY);
    }

    /** Where the model's requests go. */
    String completionsUrl() {
        return baseUrl + "/chat/completions";
    }
}
