package dev.codeinterp.web.view;

import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.conversations.Conversation;
import dev.codeinterp.web.conversations.Conversations;
import org.teavm.jso.JSBody;
import org.teavm.jso.browser.Window;
import org.teavm.jso.dom.events.KeyboardEvent;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.List;

/**
 * The sidebar: "New conversation", a search over titles and cells' code, and every conversation
 * this browser can open, newest first ({@link ConversationRow}). Under 800 px wide it is a drawer
 * the header's toggle opens, and choosing a conversation (or Escape, or the shade beside it) closes
 * it. It renders a moment after the list changes, so a replayed history costs one render.
 */
public final class ConversationList implements ConversationRow.Actions {
    public interface Actions {
        void newConversation();

        void rename(String route, String title);

        void delete(String route);
    }

    private final HTMLElement root = Dom.el("aside", "sidebar");
    private final HTMLElement shade = Dom.el("div", "sidebar-shade");
    private final HTMLElement toggle = Dom.button("☰", "conversations-toggle", "Conversations");
    private final HTMLElement search = Dom.el("input", "conversation-search");
    private final HTMLElement items = Dom.el("ul", "conversation-list");
    private final HTMLElement empty = Dom.text("p", "conversation-empty muted", "");
    private final HTMLElement problem = Dom.text("p", "conversation-problem", "");
    private final Conversations conversations;
    private final Actions actions;
    private String current;
    private boolean renderScheduled;
    /** A row is being renamed or asked about: renders wait until it is done (a render would wipe it). */
    private boolean editing;

    public ConversationList(Conversations conversations, Actions actions) {
        this.conversations = conversations;
        this.actions = actions;
        root.setAttribute("id", "conversations");
        root.setAttribute("data-testid", "conversations");
        root.setAttribute("aria-label", "Conversations");
        HTMLElement head = Dom.el("div", "sidebar-head");
        HTMLElement create = Dom.button("+ New conversation", "new-conversation", "Start a new conversation (the one shown stays in the list)");
        create.getClassList().add("primary");
        create.addEventListener("click", e -> {
            close();
            actions.newConversation();
        });
        HTMLElement hide = Dom.button("×", "conversations-close", "Close the list");
        hide.getClassList().add("sidebar-close");
        hide.addEventListener("click", e -> close());
        head.appendChild(create);
        head.appendChild(hide);
        root.appendChild(head);
        search.setAttribute("type", "search");
        search.setAttribute("data-testid", "conversation-search");
        search.setAttribute("placeholder", "Search titles and code");
        search.setAttribute("aria-label", "Search conversations by title and code");
        search.addEventListener("input", e -> {
            editing = false; // searching leaves a half-done rename
            render();
        });
        root.appendChild(search);
        problem.setAttribute("hidden", "");
        root.appendChild(problem);
        items.setAttribute("aria-label", "Conversations, newest first");
        root.appendChild(items);
        root.appendChild(empty);
        toggle.getClassList().add("sidebar-toggle");
        toggle.setAttribute("aria-controls", "conversations");
        toggle.setAttribute("aria-expanded", String.valueOf(!narrow()));
        toggle.addEventListener("click", e -> flip());
        shade.addEventListener("click", e -> close());
        root.addEventListener("keydown", e -> {
            if ("Escape".equals(((KeyboardEvent) e).getKey()) && drawerOpen()) {
                close();
                toggle.focus();
            }
        });
        Window.setInterval(this::render, 60_000); // "5 min ago" grows old
    }

    public HTMLElement root() {
        return root;
    }

    /** The header's button that opens the drawer (on a wide screen: hides or shows the sidebar). */
    public HTMLElement toggle() {
        return toggle;
    }

    /** The shade over the page while the drawer is open. */
    public HTMLElement shade() {
        return shade;
    }

    /** Marks the conversation shown. */
    public void current(String route) {
        current = route;
        editing = false; // another conversation opened: a half-done rename or question goes
        changed();
    }

    /** The list changed: it renders a moment later. */
    public void changed() {
        if (!renderScheduled) {
            renderScheduled = true;
            Window.setTimeout(this::render, 50);
        }
    }

    private void render() {
        renderScheduled = false;
        if (editing) {
            return; // the row's answer renders
        }
        List<Conversation> shown = conversations.matching(Browser.value(search), current);
        Dom.clear(items);
        double now = Browser.now();
        for (Conversation c : shown) {
            items.appendChild(new ConversationRow(c, c.route().equals(current), now, this).root());
        }
        Dom.setText(empty, shown.isEmpty() ? (Browser.value(search).isBlank() ? "No conversations yet." : "No conversation matches.") : "");
        String why = conversations.problem();
        Dom.setText(problem, why == null ? "" : why);
        if (why == null) {
            problem.setAttribute("hidden", "");
        } else {
            problem.removeAttribute("hidden");
        }
    }

    @Override
    public void chosen(String route) {
        close(); // the link's own navigation opens it
    }

    @Override
    public void editing() {
        editing = true;
    }

    @Override
    public void rename(String route, String title) {
        editing = false;
        if (title != null) {
            actions.rename(route, title);
        }
        render();
    }

    @Override
    public void delete(String route) {
        editing = false;
        actions.delete(route);
        render();
    }

    private void flip() {
        Dom.document().getBody().getClassList().toggle("sidebar-toggled");
        boolean open = drawerOpen() || (!narrow() && !Dom.document().getBody().getClassList().contains("sidebar-toggled"));
        toggle.setAttribute("aria-expanded", String.valueOf(open));
        if (drawerOpen()) {
            search.focus();
        }
    }

    private void close() {
        if (narrow()) {
            Dom.document().getBody().getClassList().remove("sidebar-toggled");
            toggle.setAttribute("aria-expanded", "false");
        }
    }

    private boolean drawerOpen() {
        return narrow() && Dom.document().getBody().getClassList().contains("sidebar-toggled");
    }

    /** Whether the sidebar is a drawer here (conversations.css: under 800 px). */
    @JSBody(script = "return window.matchMedia('(max-width: 799.98px)').matches;")
    private static native boolean narrow();
}
