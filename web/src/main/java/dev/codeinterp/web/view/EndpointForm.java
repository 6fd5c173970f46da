package dev.codeinterp.web.view;

import dev.codeinterp.web.bindings.Browser;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * Local mode's model endpoint settings: base URL, model, optional API key, kept in this browser.
 * Says plainly where prompts and the code's output go once one is set. Not an HTML form: nothing
 * here is ever submitted as a navigation, so the key never lands in a URL.
 */
public final class EndpointForm {
    public interface Actions {
        /** Returns null when saved, or the sentence saying what is wrong. */
        String save(String baseUrl, String model, String apiKey);

        void remove();
    }

    private final HTMLElement root = Dom.el("details", "endpoint-form");
    private final HTMLElement summary = Dom.el("summary", "endpoint-summary");
    private final HTMLElement state = Dom.el("p", "endpoint-state");
    private final HTMLElement problem = Dom.el("p", "api-key-problem");
    private final HTMLElement baseUrl = field("endpoint-base-url", "text", "http://localhost:11434/v1");
    private final HTMLElement model = field("endpoint-model", "text", "llama3.1");
    private final HTMLElement apiKey = field("endpoint-api-key", "password", "optional");
    private final HTMLElement remove = Dom.button("Remove", "endpoint-remove", "Forget this endpoint: Ask is off again");

    public EndpointForm(Actions actions) {
        root.setAttribute("data-testid", "endpoint-settings");
        Dom.setText(summary, "Model endpoint for local mode");
        root.appendChild(summary);
        root.appendChild(Dom.text("p", null, "Ask in local mode uses an OpenAI-compatible endpoint you choose (Ollama, "
                + "llama.cpp, vLLM or a hosted API). Your prompts and the output of the code the assistant runs are sent "
                + "to it, from a separate frame that may talk to that address only; the code itself still runs in this "
                + "browser. The settings are kept in this browser only."));
        state.setAttribute("data-testid", "endpoint-state");
        root.appendChild(state);
        problem.setAttribute("role", "alert");
        problem.setAttribute("data-testid", "endpoint-problem");
        root.appendChild(problem);
        HTMLElement rows = Dom.el("div", "endpoint-rows");
        row(rows, "Base URL", baseUrl);
        row(rows, "Model", model);
        row(rows, "API key", apiKey);
        root.appendChild(rows);
        HTMLElement save = Dom.button("Save", "endpoint-save", "Use this endpoint for Ask in local mode");
        save.getClassList().add("primary");
        save.addEventListener("click", e -> {
            String refused = actions.save(Browser.value(baseUrl), Browser.value(model), Browser.value(apiKey));
            Dom.setText(problem, refused == null ? "" : refused);
            if (refused == null) {
                root.removeAttribute("open"); // saved: the line under the composer now says where prompts go
            }
        });
        remove.addEventListener("click", e -> {
            actions.remove();
            Browser.setValue(apiKey, "");
        });
        HTMLElement buttons = Dom.el("div", "endpoint-buttons");
        buttons.appendChild(save);
        buttons.appendChild(remove);
        root.appendChild(buttons);
        show(false);
    }

    public HTMLElement root() {
        return root;
    }

    /** Shown only in local mode. */
    public void show(boolean shown) {
        root.getStyle().setProperty("display", shown ? "" : "none");
    }

    /** The fields as kept, and a line saying where prompts go (null: none is set). */
    public void showEndpoint(String base, String modelName, String origin) {
        Browser.setValue(baseUrl, base == null ? "" : base);
        Browser.setValue(model, modelName == null ? "" : modelName);
        Dom.setText(state, origin == null ? "No endpoint is set: local mode sends nothing anywhere."
                : "Prompts and tool output go to " + origin + " (model " + modelName + ").");
        remove.getStyle().setProperty("display", origin == null ? "none" : "");
    }

    private static HTMLElement field(String testId, String type, String placeholder) {
        HTMLElement input = Dom.el("input", "api-key-input");
        input.setAttribute("type", type);
        input.setAttribute("id", testId);
        input.setAttribute("data-testid", testId);
        input.setAttribute("autocomplete", "off");
        input.setAttribute("spellcheck", "false");
        input.setAttribute("placeholder", placeholder);
        return input;
    }

    private static void row(HTMLElement rows, String label, HTMLElement input) {
        HTMLElement row = Dom.el("div", "api-key-row");
        HTMLElement l = Dom.text("label", "endpoint-label", label);
        l.setAttribute("for", input.getAttribute("id"));
        row.appendChild(l);
        row.appendChild(input);
        rows.appendChild(row);
    }
}
