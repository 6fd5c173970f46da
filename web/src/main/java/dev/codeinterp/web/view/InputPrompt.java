package dev.codeinterp.web.view;

import dev.codeinterp.model.Event;
import dev.codeinterp.web.bindings.Browser;
import org.teavm.jso.dom.events.KeyboardEvent;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * The box a running cell's {@code input()} or {@code getpass()} shows in its turn: the prompt, a
 * field (masked for a password), Enter or "Send" answers. The answer is not shown here: the runner
 * echoes prompt and answer (not a password) into the cell's output, so the history keeps it too.
 * The turn closes the box when the cell moves on (its echo, or its end).
 */
public final class InputPrompt {
    /** Where an answer goes: the interpreter that asked. */
    public interface Replies {
        void reply(String value);
    }

    private final HTMLElement root = Dom.el("form", "output output-input");
    private final HTMLElement field = Dom.el("input", "input-field");
    private boolean sent;

    InputPrompt(Event.InputRequest request, Replies replies) {
        root.setAttribute("data-testid", "input-prompt");
        root.setAttribute("data-output-type", "input");
        root.setAttribute("autocomplete", "off");
        root.addEventListener("submit", e -> e.preventDefault()); // never a navigation
        HTMLElement label = Dom.text("label", "input-label", request.prompt().isEmpty() ? "Input:" : request.prompt());
        field.setAttribute("type", request.password() ? "password" : "text");
        field.setAttribute("data-testid", "input-field");
        field.setAttribute("autocomplete", request.password() ? "new-password" : "off");
        field.setAttribute("spellcheck", "false");
        field.setAttribute("aria-label", request.prompt().isEmpty() ? "Input for the running cell" : request.prompt());
        HTMLElement send = Dom.button("Send", "input-send", "Send this answer to the running cell");
        label.appendChild(field);
        root.appendChild(label);
        root.appendChild(send);
        Runnable answer = () -> {
            if (sent) {
                return;
            }
            if (replies == null) {
                root.appendChild(Dom.text("span", "muted", " This view cannot answer input()."));
                return;
            }
            sent = true;
            String value = Browser.value(field);
            Browser.setValue(field, "");
            field.setAttribute("disabled", "");
            send.setAttribute("disabled", "");
            replies.reply(value);
        };
        send.addEventListener("click", e -> answer.run());
        field.addEventListener("keydown", e -> {
            if ("Enter".equals(((KeyboardEvent) e).getKey())) {
                e.preventDefault();
                answer.run();
            }
        });
    }

    HTMLElement root() {
        return root;
    }

    void focus() {
        field.focus();
    }

    /** The cell moved on: the box goes away. */
    void close() {
        if (root.getParentNode() != null) {
            root.getParentNode().removeChild(root);
        }
    }
}
