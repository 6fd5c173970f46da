package dev.codeinterp.web.view;

import org.teavm.jso.dom.html.HTMLElement;

/**
 * The end of a conversation whose server session was lost with its node: the server's reason, as
 * text, and "Continue in a new session", which keeps the conversation on the page and goes on in a
 * new session under it. Once the new session is there the button goes; the reason stays, above the
 * line that says where the new session begins.
 */
public final class LostSessionNotice {
    private static final String LABEL = "Continue in a new session";
    private static final String TITLE = "Start a new server session and go on in this conversation (no variables or files from before)";

    private final HTMLElement root = Dom.el("div", "lost-notice");
    private final HTMLElement button = Dom.button(LABEL, "continue-in-new-session", TITLE);

    public LostSessionNotice(String reason, Runnable onContinue) {
        root.setAttribute("data-testid", "session-lost");
        root.setAttribute("role", "alert");
        root.appendChild(Dom.text("p", "lost-reason", reason));
        button.getClassList().add("primary");
        button.addEventListener("click", e -> {
            if (!button.hasAttribute("disabled")) {
                onContinue.run();
            }
        });
        root.appendChild(button);
    }

    public HTMLElement root() {
        return root;
    }

    /** The new session is being started: not asked for twice. */
    public void starting() {
        Dom.setText(button, "Starting a new session…");
        button.setAttribute("disabled", "");
    }

    /** No session came (the start failed, or the page moved on): the button is there to try again. */
    public void offerAgain() {
        Dom.setText(button, LABEL);
        button.removeAttribute("disabled");
    }

    /** The conversation goes on in its new session: only the reason stays. */
    public void continued() {
        if (button.getParentNode() != null) {
            root.removeChild(button);
        }
        root.removeAttribute("role");
    }

    /** The line in the conversation where the new session begins. */
    public static HTMLElement divider(String note) {
        HTMLElement line = Dom.text("p", "continued", note);
        line.setAttribute("data-testid", "continued");
        return line;
    }
}
