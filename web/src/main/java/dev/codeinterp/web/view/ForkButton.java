package dev.codeinterp.web.view;

import org.teavm.jso.dom.html.HTMLElement;

/**
 * "Fork" in the top bar: a new conversation with this one's history, variables and files, the old
 * one left as it is. Shown for server conversations only (local mode has no server session to copy);
 * where the server cannot copy a running interpreter (runc), shown disabled with the server's reason
 * on hover. A fork asked for while a cell runs is refused by the server, which says so.
 */
public final class ForkButton {
    private static final String TITLE = "Open a copy of this conversation: its history, variables and files (this one stays as it is)";

    private final HTMLElement root = Dom.button("Fork", "fork", TITLE);

    public ForkButton(Runnable onFork) {
        root.getClassList().add("small");
        root.getClassList().add("fork-button");
        root.addEventListener("click", e -> {
            if (!root.hasAttribute("disabled")) {
                onFork.run();
            }
        });
        hide();
    }

    public HTMLElement root() {
        return root;
    }

    /** No conversation that can be forked (local mode, or no server session yet). */
    public void hide() {
        root.setAttribute("hidden", "");
    }

    /** Shown; {@code whyNot} null for a fork that can work, else the reason it cannot, shown on hover. */
    public void offer(String whyNot) {
        root.removeAttribute("hidden");
        enable(whyNot == null, "Fork", whyNot == null ? TITLE : whyNot);
    }

    /** A fork is being made: not asked for twice. */
    public void forking() {
        enable(false, "Forking…", "Copying this conversation…");
    }

    /** The accessible name starts with the text shown, so speech input finds it by what it says (axe). */
    private void enable(boolean enabled, String text, String title) {
        Dom.setText(root, text);
        if (enabled) {
            root.removeAttribute("disabled");
        } else {
            root.setAttribute("disabled", "");
        }
        root.setAttribute("title", title);
        root.setAttribute("aria-label", text + ": " + title);
    }

    /**
     * The quiet note at the top of a forked conversation, naming the one it came from with a link
     * back to it (a fragment of this app, opened by the page itself).
     */
    public static HTMLElement note(String sourceId, String sourceRoute) {
        HTMLElement note = Dom.el("p", "fork-note");
        note.setAttribute("data-testid", "fork-note");
        note.appendChild(Dom.document().createTextNode("Forked from conversation "));
        HTMLElement link = Dom.text("a", null, sourceId.substring(0, Math.min(8, sourceId.length())));
        link.setAttribute("href", "#" + sourceRoute);
        link.setAttribute("title", "Open the conversation this one was forked from");
        note.appendChild(link);
        note.appendChild(Dom.document().createTextNode(" — variables and files copied."));
        return note;
    }

    /** Why this server cannot fork, for the disabled button's hover, from {@code /healthz}'s {@code idle.why}. */
    public static String cannotFork(String why) {
        String reason = why == null ? "" : why.replaceAll("[.\\s]+$", "");
        return "This server cannot fork conversations: it cannot copy a running interpreter"
                + (reason.isEmpty() ? "." : " (" + reason + ").");
    }
}
