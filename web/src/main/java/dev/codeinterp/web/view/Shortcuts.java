package dev.codeinterp.web.view;

import org.teavm.jso.JSBody;
import org.teavm.jso.JSObject;
import org.teavm.jso.dom.events.KeyboardEvent;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * The page's keyboard shortcuts: Ctrl+. (Cmd+. on a Mac) interrupts the running cell anywhere on the
 * page, and {@code ?} outside a text field shows the list of shortcuts (a dialog Esc closes).
 */
final class Shortcuts {
    private static final String[][] KEYS = {
        {"Shift+Enter or Ctrl+Enter", "Run the cell"},
        {"Ctrl+.", "Interrupt the running cell"},
        {"Up / Down (first / last line)", "Earlier cells you ran"},
        {"Tab", "Indent (in the editor)"},
        {"Esc, then Tab", "Leave the editor"},
        {"?", "Show these shortcuts (outside the editor)"},
    };

    private final HTMLElement dialog = Dom.el("dialog", "shortcuts");

    Shortcuts(Runnable interrupt) {
        dialog.setAttribute("data-testid", "shortcuts");
        dialog.setAttribute("aria-labelledby", "shortcuts-title");
        HTMLElement title = Dom.text("h2", "shortcuts-title", "Keyboard shortcuts");
        title.setAttribute("id", "shortcuts-title");
        dialog.appendChild(title);
        HTMLElement list = Dom.el("dl", "shortcuts-list");
        for (String[] k : KEYS) {
            HTMLElement key = Dom.el("dt", null);
            key.appendChild(Dom.text("kbd", null, k[0]));
            list.appendChild(key);
            list.appendChild(Dom.text("dd", null, k[1]));
        }
        dialog.appendChild(list);
        HTMLElement close = Dom.button("Close", "shortcuts-close", "Close the list of shortcuts");
        close.addEventListener("click", e -> closeDialog(dialog));
        dialog.appendChild(close);
        Dom.document().getBody().appendChild(dialog);
        Dom.document().addEventListener("keydown", ev -> {
            KeyboardEvent e = (KeyboardEvent) ev;
            if (".".equals(e.getKey()) && (e.isCtrlKey() || e.isMetaKey())) {
                e.preventDefault();
                interrupt.run();
            } else if ("?".equals(e.getKey()) && !typing() && !e.isCtrlKey() && !e.isMetaKey()) {
                e.preventDefault();
                show();
            }
        });
    }

    /** A button that shows the list (where a keyboard is not at hand, or for the curious). */
    HTMLElement button() {
        HTMLElement b = Dom.button("?", "shortcuts-button", "Keyboard shortcuts");
        b.getClassList().add("shortcuts-button");
        b.addEventListener("click", e -> show());
        return b;
    }

    void show() {
        showModal(dialog);
    }

    @JSBody(script = "var e = document.activeElement; if (!e) return false; var t = e.tagName;"
            + "return t === 'TEXTAREA' || t === 'SELECT' || (t === 'INPUT' && e.type !== 'button' && e.type !== 'file') || e.isContentEditable;")
    private static native boolean typing();

    @JSBody(params = "d", script = "if (!d.open) d.showModal();")
    private static native void showModal(JSObject d);

    @JSBody(params = "d", script = "d.close();")
    private static native void closeDialog(JSObject d);
}
