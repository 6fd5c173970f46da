package dev.codeinterp.web.view;

import org.teavm.jso.dom.html.HTMLElement;

/**
 * What a link to a conversation this browser cannot open shows, in place of a conversation: that it
 * cannot, why that happens, and a button for a new conversation. Nothing starts until it is pressed
 * (a link never turns silently into another conversation).
 */
public final class ForeignLinkPage {
    private final HTMLElement root = Dom.el("section", "foreign-link");

    /** {@code local}: the link names a local conversation (kept only by the browser that ran it). */
    public ForeignLinkPage(boolean local, boolean withKey, Runnable startNew) {
        root.setAttribute("data-testid", "foreign-link");
        root.setAttribute("aria-labelledby", "foreign-link-title");
        HTMLElement title = Dom.text("h2", "foreign-link-title", "This conversation is not in this browser");
        title.setAttribute("id", "foreign-link-title");
        root.appendChild(title);
        root.appendChild(Dom.text("p", null, local
                ? "The link names a local conversation: it lives only in the browser that ran it (nothing of it ever "
                        + "left that browser), or it was deleted there."
                : withKey
                ? "The link names a server conversation that neither this browser nor your API key can open: it belongs "
                        + "to another key, or it was deleted."
                : "The link names a server conversation opened in another browser (only that browser holds its "
                        + "access token), or it was deleted. With an API key, a key's conversations open in any "
                        + "browser that holds the key."));
        root.appendChild(Dom.text("p", null, "Nothing was started. Your other conversations are in the list."));
        HTMLElement start = Dom.button("Start a new conversation", "foreign-new-conversation", "Start a new conversation");
        start.getClassList().add("primary");
        start.addEventListener("click", e -> startNew.run());
        root.appendChild(start);
    }

    public HTMLElement root() {
        return root;
    }
}
