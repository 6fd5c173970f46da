package dev.codeinterp.server.config;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * The assistant's model endpoint: any OpenAI-compatible {@code /v1/chat/completions} (Ollama, vLLM,
 * llama.cpp's llama-server, a hosted API). Without a base URL the assistant is off and nothing is
 * ever called. The API key is held here only: {@link #toString()} never shows it.
 */
public record AssistantSettings(
        URI baseUrl,
        String model,
        String apiKey,
        int maxToolRounds,
        int maxTokens,
        Duration timeout,
        int toolOutputChars) {

    public static final AssistantSettings OFF = new AssistantSettings(null, null, null, 8, 2048, Duration.ofSeconds(120), 8000);

    public AssistantSettings {
        if (baseUrl != null) {
            String scheme = baseUrl.getScheme();
            if (!"http".equals(scheme) && !"https".equals(scheme) || baseUrl.getHost() == null) {
                throw new IllegalArgumentException("CODEINTERP_LLM_BASE_URL must be an http(s) URL such as "
                        + "http://127.0.0.1:11434/v1, got " + baseUrl);
            }
            if (baseUrl.getRawUserInfo() != null) {
                throw new IllegalArgumentException("CODEINTERP_LLM_BASE_URL must not hold credentials; use CODEINTERP_LLM_API_KEY");
            }
            if (model == null || model.isBlank()) {
                throw new IllegalArgumentException("CODEINTERP_LLM_MODEL must name the model when CODEINTERP_LLM_BASE_URL is set");
            }
        }
        if (maxToolRounds < 1 || maxToolRounds > 100) {
            throw new IllegalArgumentException("CODEINTERP_LLM_MAX_TOOL_ROUNDS must be 1..100, got " + maxToolRounds);
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException("CODEINTERP_LLM_MAX_TOKENS must be at least 1, got " + maxTokens);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("CODEINTERP_LLM_TIMEOUT must be positive");
        }
        if (toolOutputChars < 200) {
            throw new IllegalArgumentException("CODEINTERP_LLM_TOOL_OUTPUT must be at least 200 characters, got " + toolOutputChars);
        }
    }

    public static AssistantSettings fromEnvironment(Map<String, String> env) {
        EnvReader r = new EnvReader(env);
        String base = r.string("LLM_BASE_URL", null);
        return new AssistantSettings(
                base == null ? null : URI.create(base.endsWith("/") ? base.substring(0, base.length() - 1) : base),
                r.string("LLM_MODEL", null),
                r.string("LLM_API_KEY", null),
                r.integer("LLM_MAX_TOOL_ROUNDS", OFF.maxToolRounds),
                r.integer("LLM_MAX_TOKENS", OFF.maxTokens),
                r.duration("LLM_TIMEOUT", OFF.timeout),
                r.integer("LLM_TOOL_OUTPUT", OFF.toolOutputChars));
    }

    /** Whether an endpoint is configured; when not, the assistant calls nothing. */
    public boolean enabled() {
        return baseUrl != null;
    }

    @Override
    public String toString() {
        return "AssistantSettings[baseUrl=" + baseUrl + ", model=" + model + ", apiKey=" + (apiKey == null ? "none" : "(set)")
                + ", maxToolRounds=" + maxToolRounds + ", maxTokens=" + maxTokens + ", timeout=" + timeout
                + ", toolOutputChars=" + toolOutputChars + "]";
    }
}
