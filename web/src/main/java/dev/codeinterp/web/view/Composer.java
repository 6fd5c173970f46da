// Over 300 lines: the editor's key handling (run, indent, history) and its two modes (code with a language, a prompt) read as one.
package dev.codeinterp.web.view;

import dev.codeinterp.model.Language;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.bindings.Scrolling;
import dev.codeinterp.web.bindings.Viewport;
import org.teavm.jso.dom.events.KeyboardEvent;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.ArrayList;
import java.util.List;

/**
 * The code editor: Shift+Enter or Ctrl/Cmd+Enter runs, Tab indents (Esc then Tab leaves), Enter keeps the indent
 * (one level more after a colon in Python, an opening bracket in JavaScript), Up/Down at the
 * first/last line recall earlier cells. With a language picker, cells run in the picked language.
 */
public final class Composer {
    public interface Actions {
        void run(String code);

        /** A cell in {@code language}; without a picker every cell is Python. */
        default void run(String code, Language language) {
            run(code);
        }

        /** The user picked another language for the next cells. */
        default void languagePicked(Language language) {
        }

        void interrupt();

        /** A plain-language prompt for the assistant (the composer in "Ask" mode). */
        default void ask(String text) {
        }

        /** Stop the assistant's turn. */
        default void stop() {
        }

        /** The user switched between "Code" and "Ask". */
        default void modePicked(ComposerMode.Kind kind) {
        }

        void restart();

        void newSession();
    }

    private final HTMLElement root = Dom.el("footer", "composer");
    private final HTMLElement editor = Dom.el("textarea", "editor");
    /** The highlighted copy of the code, drawn under the transparent textarea's text. */
    private final HTMLElement highlight = Dom.el("pre", "editor-highlight");
    private final HTMLElement interrupt;
    private final HTMLElement run;
    /** Stops the assistant's turn: shown only while one runs. */
    private final HTMLElement stop;
    /** Code or Ask, or null (the embed widget only runs code). */
    private final ComposerMode mode;
    private final EditorKeys keys = new EditorKeys();
    private final List<String> history = new ArrayList<>();
    private int historyIndex;
    private String draft = "";
    private final Actions actions;
    /** The language picker, or null (the embed widget runs Python only). */
    private final HTMLElement picker;
    private Language language = Language.PYTHON;
    /** The packages the picked language's cells ask for, or null (the embed widget has none). */
    private PackagesField packages;

    public Composer(Actions actions) {
        this(actions, false);
    }

    public Composer(Actions actions, boolean languagePicker) {
        this.actions = actions;
        this.picker = languagePicker ? LanguagePicker.create(this::pick) : null;
        this.mode = languagePicker ? new ComposerMode(this::pickMode) : null;
        editor.setAttribute("data-testid", "composer");
        editor.setAttribute("aria-label", "Python code");
        editor.setAttribute("spellcheck", "false");
        editor.setAttribute("autocapitalize", "off");
        editor.setAttribute("rows", "4");
        editor.setAttribute("placeholder", "print('Hello')   — Shift+Enter to run");
        editor.addEventListener("keydown", e -> onKey((KeyboardEvent) e));
        editor.addEventListener("input", e -> rehighlight());
        editor.addEventListener("scroll", e -> Browser.syncScroll(editor, highlight));
        highlight.setAttribute("aria-hidden", "true");
        run = Dom.button("Run", "run", "Run the cell (Shift+Enter)");
        run.getClassList().add("primary");
        run.addEventListener("click", e -> submit());
        interrupt = Dom.button("Interrupt", "interrupt", "Interrupt the running cell");
        interrupt.addEventListener("click", e -> actions.interrupt());
        stop = Dom.button("Stop", "stop-assistant", "Stop the assistant (its request and the cell it runs)");
        stop.addEventListener("click", e -> actions.stop());
        setAssistantRunning(false);
        HTMLElement restart = Dom.button("Restart", "restart", "Restart the interpreter (variables are lost)");
        RestartConfirm confirm = new RestartConfirm(actions::restart);
        restart.addEventListener("click", e -> confirm.ask(editor));
        HTMLElement fresh = Dom.button("New session", "new-session", "Start a new session");
        fresh.addEventListener("click", e -> actions.newSession());
        HTMLElement buttons = Dom.el("div", "composer-buttons");
        if (picker != null) {
            buttons.appendChild(picker);
        }
        buttons.appendChild(run);
        buttons.appendChild(interrupt);
        buttons.appendChild(stop);
        buttons.appendChild(restart);
        buttons.appendChild(fresh);
        if (languagePicker) { // the app's page, not the embed widget: page-wide shortcuts and a phone's hint
            buttons.appendChild(new Shortcuts(actions::interrupt).button());
            Scrolling.reserve(root);
            Viewport.onNarrowChange(this::showMode);
        }
        HTMLElement wrap = Dom.el("div", "editor-wrap");
        wrap.appendChild(highlight);
        wrap.appendChild(editor);
        if (mode != null) {
            root.appendChild(mode.root());
        }
        root.appendChild(wrap);
        root.appendChild(buttons);
        root.appendChild(confirm.root());
        setRunning(false);
    }

    public HTMLElement root() {
        return root;
    }

    /** Shows {@code field} beside the language picker; it follows the picked language. */
    public void addPackages(PackagesField field) {
        packages = field;
        picker.getParentNode().insertBefore(field.root(), picker.getNextSibling());
        field.show(language);
    }

    /** Shows {@code control} (the cell timeout) after the language picker and its packages field. */
    public void addBesidePicker(HTMLElement control) {
        HTMLElement after = packages != null ? packages.root() : picker;
        after.getParentNode().insertBefore(control, after.getNextSibling());
    }

    /** Puts a settings panel (local mode's endpoint) at the top of the composer, where Ask is chosen. */
    public void addSettings(HTMLElement panel) {
        root.insertBefore(panel, root.getFirstChild());
    }

    public void focus() {
        editor.focus();
    }

    public void setRunning(boolean running) {
        interrupt.setAttribute("aria-disabled", running ? "false" : "true");
        if (running) {
            interrupt.getClassList().remove("idle");
        } else {
            interrupt.getClassList().add("idle");
        }
    }

    public void setAssistantRunning(boolean running) {
        stop.getStyle().setProperty("display", running ? "" : "none");
    }

    /** Whether the assistant takes prompts in this conversation; {@code note} says to whom, or how to get one. */
    public void offerAssistant(boolean available, String note) {
        if (mode != null) {
            mode.offer(available, note);
            showMode();
        }
    }

    /** Shows "Code" or "Ask" (the conversation's own, on opening it); "Ask" only where it is offered. */
    public void setMode(ComposerMode.Kind kind) {
        if (mode != null) {
            mode.show(kind);
            showMode();
        }
    }

    private boolean asking() {
        return mode != null && mode.kind() == ComposerMode.Kind.ASK;
    }

    private void pickMode(ComposerMode.Kind kind) {
        setMode(kind);
        actions.modePicked(kind);
        editor.focus();
    }

    private void showMode() {
        ComposerMode.label(asking(), editor, run);
        ComposerMode.dress(asking(), root, picker);
        if (asking()) {
            rehighlight();
        } else {
            setLanguage(language);
        }
    }

    public void remember(String code) {
        if (!code.isBlank() && (history.isEmpty() || !history.get(history.size() - 1).equals(code))) {
            history.add(code);
        }
        historyIndex = history.size();
    }

    /** Gives back a cell that did not run, after anything typed since, so no code is lost. */
    public void putBack(String code) {
        String typed = Browser.value(editor);
        setCode(typed.isBlank() ? code : typed + "\n\n" + code);
        editor.focus();
    }

    /** Replaces what is in the editor (the embed widget's host sets it). */
    public void setCode(String code) {
        Browser.setValue(editor, code);
        rehighlight();
    }

    public String code() {
        return Browser.value(editor);
    }

    public Language language() {
        return language;
    }

    /** Shows {@code chosen} as the language of the next cells (a conversation's own, on opening it). */
    public void setLanguage(Language chosen) {
        language = chosen;
        if (picker != null) {
            Browser.setValue(picker, chosen.wire());
        }
        if (packages != null) {
            packages.show(chosen);
        }
        if (asking()) {
            return;
        }
        editor.setAttribute("aria-label", CellLanguage.label(chosen) + " code");
        editor.setAttribute("placeholder", CellLanguage.placeholder(chosen, picker != null && Viewport.narrow()));
        rehighlight();
    }

    private void pick(Language chosen) {
        setLanguage(chosen);
        actions.languagePicked(chosen);
        editor.focus();
    }

    private void rehighlight() {
        Dom.clear(highlight);
        if (asking()) {
            // prose, not code: the copy under the textarea stays plain
            highlight.appendChild(Dom.document().createTextNode(Browser.value(editor) + " "));
            Browser.syncScroll(editor, highlight);
            return;
        }
        // a trailing newline needs a character after it, or the copy is a line shorter than the textarea
        CellLanguage.highlight(Browser.value(editor) + " ", language, highlight);
        Browser.syncScroll(editor, highlight);
    }

    private void submit() {
        String code = Browser.value(editor);
        if (code.isBlank()) {
            return;
        }
        if (asking()) {
            setCode("");
            actions.ask(code.strip());
            return;
        }
        remember(code);
        draft = "";
        setCode("");
        actions.run(code, language);
    }

    private void onKey(KeyboardEvent e) {
        String key = e.getKey();
        if (asking()) {
            // prose: Enter sends, Shift+Enter is a new line, Tab leaves the editor as usual
            if ("Enter".equals(key) && !e.isShiftKey() && !ComposerMode.composing(e)) {
                e.preventDefault();
                submit();
            }
            return;
        }
        if (keys.handle(e, editor)) {
            return;
        }
        if ("Enter".equals(key) && (e.isShiftKey() || e.isCtrlKey() || e.isMetaKey())) {
            e.preventDefault();
            submit();
        } else if ("Enter".equals(key)) {
            e.preventDefault();
            Browser.insertAtCursor(editor, "\n" + indentForNextLine());
        } else if ("ArrowUp".equals(key) && onFirstLine() && historyIndex > 0) {
            e.preventDefault();
            if (historyIndex == history.size()) {
                draft = Browser.value(editor);
            }
            historyIndex--;
            setCode(history.get(historyIndex));
        } else if ("ArrowDown".equals(key) && onLastLine() && historyIndex < history.size()) {
            e.preventDefault();
            historyIndex++;
            setCode(historyIndex == history.size() ? draft : history.get(historyIndex));
        }
    }

    private String indentForNextLine() {
        String text = Browser.value(editor);
        int cursor = Browser.selectionStart(editor);
        int lineStart = text.lastIndexOf('\n', cursor - 1) + 1;
        String line = text.substring(lineStart, cursor);
        int spaces = 0;
        while (spaces < line.length() && line.charAt(spaces) == ' ') {
            spaces++;
        }
        String indent = " ".repeat(spaces);
        String opener = language == Language.PYTHON ? ":" : language == Language.JAVASCRIPT ? "{" : "\u0000";
        return line.trim().endsWith(opener) ? indent + "    " : indent;
    }

    private boolean onFirstLine() {
        return Browser.value(editor).lastIndexOf('\n', Browser.selectionStart(editor) - 1) < 0;
    }

    private boolean onLastLine() {
        return Browser.value(editor).indexOf('\n', Browser.selectionEnd(editor)) < 0;
    }
}
