package dev.codeinterp.web.view;

import org.teavm.jso.dom.html.HTMLElement;

/**
 * "Server" or "Local (in this browser)": always visible, the active one pressed. Choosing one starts
 * a new conversation in that mode; the other conversation stays where it is (server or IndexedDB).
 */
public final class ModeSwitch {
    public enum Mode { SERVER, LOCAL }

    public interface Choice {
        void chosen(Mode mode);
    }

    private final HTMLElement root = Dom.el("div", "mode-switch");
    private final HTMLElement server = Dom.button("Server", "mode-server",
            "Run code on the server, in a sandbox; the conversation is kept on the server");
    private final HTMLElement local = Dom.button("Local (in this browser)", "mode-local",
            "Run code in this browser with Pyodide; nothing you run or upload leaves this browser");

    /** {@code leaningLocal}: the pointer came onto "Local", or it got focus or was pressed (a click may follow). */
    public ModeSwitch(Choice choice, Runnable leaningLocal) {
        root.setAttribute("role", "group");
        root.setAttribute("aria-label", "Where code runs");
        server.addEventListener("click", e -> choice.chosen(Mode.SERVER));
        local.addEventListener("click", e -> choice.chosen(Mode.LOCAL));
        for (String type : new String[] {"pointerenter", "focus", "pointerdown"}) {
            local.addEventListener(type, e -> leaningLocal.run());
        }
        root.appendChild(server);
        root.appendChild(local);
    }

    public HTMLElement root() {
        return root;
    }

    public void show(Mode mode) {
        server.setAttribute("aria-pressed", String.valueOf(mode == Mode.SERVER));
        local.setAttribute("aria-pressed", String.valueOf(mode == Mode.LOCAL));
    }
}
