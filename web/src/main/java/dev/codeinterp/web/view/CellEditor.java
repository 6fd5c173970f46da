package dev.codeinterp.web.view;

import dev.codeinterp.model.Language;
import dev.codeinterp.web.bindings.Browser;
import org.teavm.jso.dom.events.KeyboardEvent;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * Editing an earlier cell: its code in an editor in place; "Run as new cell" (or Shift+Enter) runs the
 * edited code as a new turn at the end, with its own execution count, as Jupyter's re-run does. The
 * turn itself keeps the code and outputs it had.
 */
final class CellEditor {
    private final HTMLElement root = Dom.el("div", "cell-editor");
    private final HTMLElement editor = Dom.el("textarea", "editor cell-editor-input");
    private final EditorKeys keys = new EditorKeys();

    CellEditor(String code, Language language, ConversationView.Rerun rerun, Runnable done) {
        root.setAttribute("data-testid", "cell-editor");
        editor.setAttribute("data-testid", "cell-editor-input");
        editor.setAttribute("aria-label", "Edit this " + CellLanguage.label(language) + " cell; Shift+Enter runs it as a new cell");
        editor.setAttribute("spellcheck", "false");
        editor.setAttribute("autocapitalize", "off");
        editor.setAttribute("rows", String.valueOf(Math.min(16, Math.max(2, code.split("\n", -1).length))));
        Browser.setValue(editor, code);
        HTMLElement run = Dom.button("Run as new cell", "rerun", "Run the edited code as a new cell at the end");
        run.getClassList().add("primary");
        HTMLElement cancel = Dom.button("Cancel", "rerun-cancel", "Stop editing; this cell stays as it was");
        Runnable submit = () -> {
            String edited = Browser.value(editor);
            if (!edited.isBlank()) {
                done.run();
                rerun.run(edited, language);
            }
        };
        run.addEventListener("click", e -> submit.run());
        cancel.addEventListener("click", e -> done.run());
        editor.addEventListener("keydown", ev -> {
            KeyboardEvent e = (KeyboardEvent) ev;
            if (keys.handle(e, editor)) {
                return;
            }
            if ("Enter".equals(e.getKey()) && (e.isShiftKey() || e.isCtrlKey() || e.isMetaKey())) {
                e.preventDefault();
                submit.run();
            }
        });
        HTMLElement buttons = Dom.el("div", "cell-editor-buttons");
        buttons.appendChild(run);
        buttons.appendChild(cancel);
        root.appendChild(editor);
        root.appendChild(buttons);
    }

    HTMLElement root() {
        return root;
    }

    void focus() {
        editor.focus();
    }
}
