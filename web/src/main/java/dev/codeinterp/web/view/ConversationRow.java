package dev.codeinterp.web.view;

import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.conversations.Conversation;
import org.teavm.jso.JSBody;
import org.teavm.jso.dom.events.KeyboardEvent;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * One conversation of the sidebar: a link to it (its title, mode, state and last activity), and
 * Rename (the title becomes a field: Enter keeps it, Escape leaves it) and Delete (it asks first).
 * Every piece of it is text: a title is whatever someone typed or a cell began with.
 */
final class ConversationRow {
    interface Actions {
        void chosen(String route);

        void rename(String route, String title);

        void delete(String route);

        /** A row became a field or a question: the list holds its renders until it is answered. */
        void editing();
    }

    private final HTMLElement root = Dom.el("li", "conversation-row");
    private final Conversation conversation;
    private final Actions actions;

    ConversationRow(Conversation c, boolean current, double now, Actions actions) {
        this.conversation = c;
        this.actions = actions;
        root.setAttribute("data-testid", "conversation");
        root.setAttribute("data-mode", c.mode());
        root.setAttribute("data-state", c.state());
        root.setAttribute("data-route", c.route());
        if (current) {
            root.getClassList().add("current");
        }
        HTMLElement link = Dom.el("a", "conversation-open");
        link.setAttribute("href", "#" + c.route());
        link.setAttribute("title", c.title());
        if (current) {
            link.setAttribute("aria-current", "page");
        }
        link.addEventListener("click", e -> actions.chosen(c.route()));
        link.appendChild(Dom.text("span", "conversation-title", c.title()));
        HTMLElement meta = Dom.el("span", "conversation-meta");
        meta.appendChild(Dom.text("span", "conversation-mode " + c.mode(), c.local() ? "Local, in this browser" : "Server"));
        if (!c.local()) { // a local one's state is its mode: in this browser
            meta.appendChild(Dom.text("span", "conversation-state state-" + c.state(), stateLabel(c.state())));
        }
        if (c.lastActive() > 0) {
            meta.appendChild(Dom.text("span", "conversation-when", ago(now - c.lastActive())));
        }
        link.appendChild(meta);
        root.appendChild(link);
        HTMLElement tools = Dom.el("div", "conversation-tools");
        HTMLElement rename = tool(Icon.PENCIL, "conversation-rename", "Rename “" + c.title() + "”");
        rename.addEventListener("click", e -> renaming());
        HTMLElement delete = tool(Icon.BIN, "conversation-delete",
                (Conversation.GONE.equals(c.state()) ? "Remove “" : "Delete “") + c.title() + "”");
        delete.addEventListener("click", e -> confirming());
        tools.appendChild(rename);
        tools.appendChild(delete);
        root.appendChild(tools);
    }

    HTMLElement root() {
        return root;
    }

    private static HTMLElement tool(String icon, String testId, String label) {
        HTMLElement b = Dom.button("", testId, label);
        Dom.clear(b);
        b.appendChild(Icon.of(icon));
        b.getClassList().add("conversation-tool");
        return b;
    }

    private void renaming() {
        actions.editing();
        Dom.clear(root);
        root.getClassList().add("editing");
        HTMLElement field = Dom.el("input", "conversation-title-field");
        field.setAttribute("data-testid", "conversation-title-field");
        field.setAttribute("aria-label", "New title");
        field.setAttribute("maxlength", "200");
        Browser.setValue(field, conversation.title());
        HTMLElement save = Dom.button("Save", "conversation-rename-save", "Keep the new title");
        HTMLElement cancel = Dom.button("Cancel", "conversation-rename-cancel", "Keep the old title");
        save.getClassList().add("small");
        cancel.getClassList().add("small");
        save.addEventListener("click", e -> actions.rename(conversation.route(), Browser.value(field)));
        cancel.addEventListener("click", e -> actions.rename(conversation.route(), null));
        field.addEventListener("keydown", e -> {
            String key = ((KeyboardEvent) e).getKey();
            if ("Enter".equals(key)) {
                e.preventDefault();
                actions.rename(conversation.route(), Browser.value(field));
            } else if ("Escape".equals(key)) {
                e.preventDefault();
                e.stopPropagation();
                actions.rename(conversation.route(), null);
            }
        });
        root.appendChild(field);
        HTMLElement buttons = Dom.el("div", "conversation-confirm-buttons");
        buttons.appendChild(save);
        buttons.appendChild(cancel);
        root.appendChild(buttons);
        field.focus();
        select(field);
    }

    private void confirming() {
        actions.editing();
        Dom.clear(root);
        root.getClassList().add("editing");
        boolean gone = Conversation.GONE.equals(conversation.state());
        String question = conversation.local()
                ? "Delete “" + conversation.title() + "”? Its cells, outputs and files in this browser are deleted."
                : gone ? "Remove “" + conversation.title() + "” from the list? The server no longer has it."
                : "Delete “" + conversation.title() + "”? The session is closed on the server: its variables, files "
                        + "and history go.";
        HTMLElement text = Dom.text("p", "conversation-question", question);
        text.setAttribute("role", "alert");
        root.appendChild(text);
        HTMLElement yes = Dom.button(gone ? "Remove" : "Delete", "conversation-delete-confirm", question);
        yes.getClassList().add("danger");
        yes.getClassList().add("small");
        HTMLElement no = Dom.button("Cancel", "conversation-delete-cancel", "Keep the conversation");
        no.getClassList().add("small");
        yes.addEventListener("click", e -> actions.delete(conversation.route()));
        no.addEventListener("click", e -> actions.rename(conversation.route(), null));
        HTMLElement buttons = Dom.el("div", "conversation-confirm-buttons");
        buttons.appendChild(yes);
        buttons.appendChild(no);
        root.appendChild(buttons);
        no.focus();
    }

    @JSBody(params = "field", script = "field.select();")
    private static native void select(HTMLElement field);

    static String stateLabel(String state) {
        return switch (state) {
            case Conversation.RUNNING -> "running";
            case Conversation.SUSPENDED -> "suspended";
            case Conversation.LOST -> "lost";
            case Conversation.GONE -> "gone";
            case Conversation.LOCAL -> "in this browser";
            default -> "…";
        };
    }

    /** How long ago, as a person says it. */
    static String ago(double ms) {
        long minutes = (long) (ms / 60_000);
        if (minutes < 1) {
            return "just now";
        }
        if (minutes < 60) {
            return minutes + " min ago";
        }
        long hours = minutes / 60;
        if (hours < 24) {
            return hours + " h ago";
        }
        long days = hours / 24;
        return days == 1 ? "yesterday" : days < 30 ? days + " days ago" : (days / 30) + " months ago";
    }
}
