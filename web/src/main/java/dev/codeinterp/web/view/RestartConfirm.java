package dev.codeinterp.web.view;

import org.teavm.jso.dom.events.KeyboardEvent;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * Restart asks first, in the composer: "Restart the interpreter? All variables will be lost." with
 * Restart and Cancel (Esc). Nothing restarts until the second, deliberate click.
 */
final class RestartConfirm {
    private final HTMLElement root = Dom.el("div", "restart-confirm");
    private final HTMLElement cancel;
    private HTMLElement returnTo;

    RestartConfirm(Runnable restart) {
        root.setAttribute("role", "alertdialog");
        root.setAttribute("aria-label", "Restart the interpreter");
        root.setAttribute("data-testid", "restart-question");
        root.setAttribute("hidden", "");
        root.appendChild(Dom.text("span", "restart-question", "Restart the interpreter? All variables will be lost."));
        HTMLElement yes = Dom.button("Restart", "restart-confirm", "Restart now: all variables will be lost");
        yes.getClassList().add("danger");
        cancel = Dom.button("Cancel", "restart-cancel", "Keep the interpreter and its variables");
        yes.addEventListener("click", e -> {
            close();
            restart.run();
        });
        cancel.addEventListener("click", e -> close());
        root.addEventListener("keydown", e -> {
            if ("Escape".equals(((KeyboardEvent) e).getKey())) {
                close();
            }
        });
        root.appendChild(yes);
        root.appendChild(cancel);
    }

    HTMLElement root() {
        return root;
    }

    /** Asks; focus goes to Cancel (the safe answer) and back to {@code from} after. */
    void ask(HTMLElement from) {
        returnTo = from;
        root.removeAttribute("hidden");
        cancel.focus();
    }

    private void close() {
        root.setAttribute("hidden", "");
        if (returnTo != null) {
            returnTo.focus();
        }
    }
}
