package dev.codeinterp.web.view;

import dev.codeinterp.web.bindings.Browser;
import org.teavm.jso.dom.events.KeyboardEvent;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * Asks for the API key a server requires before it starts a session. Not an HTML form: nothing
 * here can be submitted as a navigation, so the key never ends up in a URL.
 */
public final class ApiKeyForm {
    public interface Submit {
        void key(String key);
    }

    private final HTMLElement root = Dom.el("section", "api-key-form");
    private final HTMLElement problem = Dom.el("p", "api-key-problem");
    private final HTMLElement input = Dom.el("input", "api-key-input");

    public ApiKeyForm(Submit submit) {
        root.setAttribute("data-testid", "api-key-form");
        root.appendChild(Dom.text("h2", "api-key-title", "API key needed"));
        root.appendChild(Dom.text("p", null, "This server asks for an API key before it starts a session. Whoever runs "
                + "the server gives you one. It is kept in this browser (its local storage) and sent only to this server."));
        problem.setAttribute("role", "alert");
        root.appendChild(problem);
        input.setAttribute("type", "password");
        input.setAttribute("id", "api-key-input");
        input.setAttribute("data-testid", "api-key");
        input.setAttribute("autocomplete", "off");
        input.setAttribute("spellcheck", "false");
        HTMLElement label = Dom.text("label", "api-key-label", "API key");
        label.setAttribute("for", "api-key-input");
        HTMLElement use = Dom.button("Use this key", "api-key-submit", "Start a session with this API key");
        use.getClassList().add("primary");
        HTMLElement row = Dom.el("div", "api-key-row");
        row.appendChild(label);
        row.appendChild(input);
        row.appendChild(use);
        root.appendChild(row);
        Runnable send = () -> {
            String key = Browser.value(input).trim();
            if (key.isEmpty()) {
                Dom.setText(problem, "Type or paste the key first.");
                return;
            }
            Browser.setValue(input, "");
            submit.key(key);
        };
        use.addEventListener("click", e -> send.run());
        input.addEventListener("keydown", e -> {
            if ("Enter".equals(((KeyboardEvent) e).getKey())) {
                e.preventDefault();
                send.run();
            }
        });
    }

    public HTMLElement root() {
        return root;
    }

    /** Shows the form; {@code refused} says the last key was not accepted. */
    public void ask(boolean refused) {
        Dom.setText(problem, refused ? "That key was not accepted. Check it and try again." : "");
        input.focus();
    }
}
