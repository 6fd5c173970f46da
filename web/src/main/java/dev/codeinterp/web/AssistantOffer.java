package dev.codeinterp.web;

import dev.codeinterp.model.health.Health;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.local.LocalEndpoint;
import dev.codeinterp.web.local.LocalInterpreter;
import dev.codeinterp.web.server.ServerHealth;
import dev.codeinterp.web.session.Interpreter;
import dev.codeinterp.web.view.Composer;
import dev.codeinterp.web.view.ComposerMode;
import dev.codeinterp.web.view.EndpointForm;

/**
 * Whether the composer offers "Ask" in the open conversation, and which of Code/Ask it shows: the
 * one last picked in that conversation (kept in this browser by its route). Server mode asks
 * {@code /healthz} whether the server has a model; local mode offers Ask only with an endpoint the
 * person set up in this browser ({@link EndpointForm}), and asks nothing of anyone without one.
 */
final class AssistantOffer implements EndpointForm.Actions {
    private static final String KEY = "codeinterp.composer-mode.";
    static final String OFF_NOTE = "Ask is off: this server has no assistant model set up.";
    static final String LOCAL_NOTE = "Ask needs a model endpoint: set one under \"Model endpoint for local mode\".";

    private final Composer composer;
    private final EndpointForm form = new EndpointForm(this);
    private String route;
    private LocalInterpreter local;

    AssistantOffer(Composer composer) {
        this.composer = composer;
    }

    /** Local mode's endpoint settings, for the page to place. */
    EndpointForm endpointForm() {
        return form;
    }

    void open(Interpreter opened) {
        String openedRoute = opened.route();
        route = openedRoute;
        local = opened instanceof LocalInterpreter l ? l : null;
        composer.setAssistantRunning(false);
        form.show(local != null);
        if (local != null) {
            offerLocal(LocalEndpoint.load());
            return;
        }
        composer.offerAssistant(false, "");
        ServerHealth.ask(health -> {
            if (!openedRoute.equals(route)) {
                return;
            }
            Health.Assistant assistant = health == null || health.assistant() == null ? Health.Assistant.OFF : health.assistant();
            if (!assistant.enabled()) {
                composer.offerAssistant(false, OFF_NOTE);
                return;
            }
            composer.offerAssistant(true, "Ask: " + (assistant.model() == null ? "the server's model" : assistant.model())
                    + " writes code and runs it in this session.");
            rememberedMode();
        });
    }

    private void offerLocal(LocalEndpoint endpoint) {
        local.useEndpoint(endpoint);
        form.showEndpoint(endpoint == null ? null : endpoint.baseUrl(), endpoint == null ? null : endpoint.model(),
                endpoint == null ? null : endpoint.origin());
        if (endpoint == null) {
            composer.offerAssistant(false, LOCAL_NOTE);
            return;
        }
        composer.offerAssistant(true, "Ask: " + endpoint.model() + " at " + endpoint.origin() + " writes code that runs in "
                + "this browser. Your prompts and the code's output are sent to " + endpoint.origin() + ".");
        rememberedMode();
    }

    private void rememberedMode() {
        composer.setMode("ask".equals(Browser.storageGet(KEY + route)) ? ComposerMode.Kind.ASK : ComposerMode.Kind.CODE);
    }

    @Override
    public String save(String baseUrl, String model, String apiKey) {
        LocalEndpoint.Checked checked = LocalEndpoint.check(baseUrl, model, apiKey);
        if (checked.endpoint() == null) {
            return checked.problem();
        }
        checked.endpoint().save();
        if (local != null) {
            offerLocal(checked.endpoint());
        }
        return null;
    }

    @Override
    public void remove() {
        LocalEndpoint.forget();
        if (local != null) {
            offerLocal(null);
        }
    }

    void picked(ComposerMode.Kind kind) {
        if (route != null) {
            Browser.storageSet(KEY + route, kind == ComposerMode.Kind.ASK ? "ask" : "code");
        }
    }
}
