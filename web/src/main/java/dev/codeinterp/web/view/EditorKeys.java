package dev.codeinterp.web.view;

import dev.codeinterp.web.bindings.Browser;
import org.teavm.jso.dom.events.KeyboardEvent;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * Tab in a code editor: it indents, except right after Esc, when it moves focus on as everywhere
 * else on the page (as CodeMirror and VS Code do), so the buttons after an editor stay reachable.
 */
final class EditorKeys {
    private boolean escaped;

    /** Handles {@code e} if it is Esc or Tab; answers whether it did (the caller's keys come after). */
    boolean handle(KeyboardEvent e, HTMLElement editor) {
        String key = e.getKey();
        if ("Escape".equals(key)) {
            escaped = true;
            return true;
        }
        boolean leave = escaped;
        escaped = false;
        if ("Tab".equals(key) && !e.isShiftKey() && !e.isCtrlKey() && !e.isAltKey() && !e.isMetaKey()) {
            if (!leave) {
                e.preventDefault();
                Browser.insertAtCursor(editor, "    ");
            }
            return true;
        }
        return false;
    }
}
