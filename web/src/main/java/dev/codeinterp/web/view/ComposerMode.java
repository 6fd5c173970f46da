package dev.codeinterp.web.view;

import org.teavm.jso.JSBody;
import org.teavm.jso.dom.events.KeyboardEvent;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * "Code" or "Ask": whether the composer runs what is typed as a cell or sends it to the assistant as a
 * plain-language prompt. Offered only where an assistant takes prompts; elsewhere a line says how to
 * get one.
 */
public final class ComposerMode {
    public enum Kind { CODE, ASK }

    public interface Choice {
        void chosen(Kind kind);
    }

    private final HTMLElement root = Dom.el("div", "composer-mode");
    private final HTMLElement group = Dom.el("div", "composer-mode-switch");
    private final HTMLElement code = Dom.button("Code", "composer-code", "Write code: it runs as a cell");
    private final HTMLElement ask = Dom.button("Ask", "composer-ask",
            "Ask in plain language: the assistant writes and runs the code");
    private final HTMLElement note = Dom.el("span", "composer-mode-note");
    private Kind kind = Kind.CODE;
    private boolean offered;

    ComposerMode(Choice choice) {
        group.setAttribute("role", "group");
        group.setAttribute("aria-label", "What you write");
        code.addEventListener("click", e -> choice.chosen(Kind.CODE));
        ask.addEventListener("click", e -> choice.chosen(Kind.ASK));
        group.appendChild(code);
        group.appendChild(ask);
        note.setAttribute("data-testid", "assistant-note");
        root.appendChild(group);
        root.appendChild(note);
        offer(false, "");
        show(Kind.CODE);
    }

    HTMLElement root() {
        return root;
    }

    /**
     * Whether prompts can be sent here; {@code note} says to whom, or in one line why not (Ask is then
     * shown disabled beside it). With neither (not known yet) the switch is hidden.
     */
    void offer(boolean available, String sentence) {
        offered = available;
        group.getStyle().setProperty("display", available || !sentence.isEmpty() ? "" : "none");
        if (available) {
            ask.removeAttribute("disabled");
            ask.setAttribute("title", "Ask in plain language: the assistant writes and runs the code");
        } else {
            ask.setAttribute("disabled", "");
            ask.setAttribute("title", sentence);
        }
        Dom.setText(note, sentence);
        if (!available) {
            show(Kind.CODE);
        }
    }

    boolean offered() {
        return offered;
    }

    Kind kind() {
        return kind;
    }

    void show(Kind shown) {
        kind = offered ? shown : Kind.CODE;
        code.setAttribute("aria-pressed", String.valueOf(kind == Kind.CODE));
        ask.setAttribute("aria-pressed", String.valueOf(kind == Kind.ASK));
    }

    /** Labels the editor and the send button for prose or code (the code labels of the editor come with its language). */
    static void label(boolean asking, HTMLElement editor, HTMLElement send) {
        String action = asking ? "Send to the assistant (Enter)" : "Run the cell (Shift+Enter)";
        Dom.setText(send, asking ? "Send" : "Run");
        send.setAttribute("title", action);
        send.setAttribute("aria-label", action);
        if (asking) {
            editor.setAttribute("aria-label", "Question for the assistant");
            editor.setAttribute("placeholder",
                    "Ask in plain language, e.g. what is the trend in sales.csv?   — Enter to send, Shift+Enter for a new line");
        }
    }

    /** Prose in the editor's font of prose, and no language picker while asking (the assistant picks the language). */
    static void dress(boolean asking, HTMLElement composer, HTMLElement picker) {
        if (asking) {
            composer.getClassList().add("asking");
        } else {
            composer.getClassList().remove("asking");
        }
        if (picker != null) {
            picker.getStyle().setProperty("display", asking ? "none" : "");
        }
    }

    /** An Enter that confirms an input method's composition (Chinese, Japanese, …) must not send the prompt. */
    @JSBody(params = "e", script = "return !!e.isComposing;")
    static native boolean composing(KeyboardEvent e);
}
