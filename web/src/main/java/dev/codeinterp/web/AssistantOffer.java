package dev.codeinterp.web;

import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.server.AssistantAvailability;
import dev.codeinterp.web.view.Composer;
import dev.codeinterp.web.view.ComposerMode;

/**
 * Whether the composer offers "Ask" in the open conversation, and which of Code/Ask it shows: the
 * one last picked in that conversation (kept in this browser by its route). Server mode asks
 * {@code /healthz} whether the server has a model; local mode has no assistant yet and asks nothing.
 */
final class AssistantOffer {
    private static final String KEY = "codeinterp.composer-mode.";
    static final String OFF_NOTE = "Ask (an assistant that writes and runs the code) is off on this server: set "
            + "CODEINTERP_LLM_BASE_URL and CODEINTERP_LLM_MODEL to turn it on (README, \"An assistant that writes the code\").";
    static final String LOCAL_NOTE = "Ask (the assistant) works in server mode; local mode runs the code you write.";

    private final Composer composer;
    private String route;

    AssistantOffer(Composer composer) {
        this.composer = composer;
    }

    void open(String openedRoute, boolean local) {
        route = openedRoute;
        composer.setAssistantRunning(false);
        composer.offerAssistant(false, local ? LOCAL_NOTE : "");
        if (local) {
            return;
        }
        AssistantAvailability.ask(assistant -> {
            if (!openedRoute.equals(route)) {
                return;
            }
            if (!assistant.enabled()) {
                composer.offerAssistant(false, OFF_NOTE);
                return;
            }
            composer.offerAssistant(true, "Ask: " + (assistant.model() == null ? "the server's model" : assistant.model())
                    + " writes code and runs it in this session.");
            composer.setMode("ask".equals(Browser.storageGet(KEY + openedRoute)) ? ComposerMode.Kind.ASK : ComposerMode.Kind.CODE);
        });
    }

    void picked(ComposerMode.Kind kind) {
        if (route != null) {
            Browser.storageSet(KEY + route, kind == ComposerMode.Kind.ASK ? "ask" : "code");
        }
    }
}
