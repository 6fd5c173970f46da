package dev.codeinterp.web.server;

import dev.codeinterp.model.health.Health;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.web.bindings.Browser;

/**
 * Whether this server's assistant takes prompts, from {@code /healthz} (asked once a page, and only
 * for server mode: local mode asks nothing of the network).
 */
public final class AssistantAvailability {
    public interface Answer {
        void ready(Health.Assistant assistant);
    }

    private static Health.Assistant known;

    private AssistantAvailability() {
    }

    public static void ask(Answer then) {
        if (known != null) {
            then.ready(known);
            return;
        }
        Browser.request("GET", "/healthz", null, null, null, (status, body, retryAfter) -> {
            Health.Assistant assistant = Health.Assistant.OFF;
            if (status == 200) {
                try {
                    assistant = WireCodec.decodeHealth(body).assistant();
                    known = assistant;
                } catch (RuntimeException unreadable) {
                    // an older or odd server: no assistant
                }
            }
            then.ready(assistant == null ? Health.Assistant.OFF : assistant);
        });
    }
}
