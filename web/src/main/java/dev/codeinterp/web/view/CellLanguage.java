package dev.codeinterp.web.view;

import dev.codeinterp.model.Language;
import dev.codeinterp.web.bindings.Highlighter;
import org.teavm.jso.dom.html.HTMLElement;

/** How the UI names, labels and colours a cell's language. */
public final class CellLanguage {
    private CellLanguage() {
    }

    /** The name people read: "Python", "JavaScript", "Bash". */
    public static String label(Language language) {
        switch (language) {
            case JAVASCRIPT: return "JavaScript";
            case BASH: return "Bash";
            case PYTHON:
            default: return "Python";
        }
    }

    /** What the empty editor suggests: on a phone (no Shift+Enter at hand) the Run button. */
    static String placeholder(Language language, boolean phone) {
        String how = phone ? "   — tap Run" : "   — Shift+Enter to run";
        switch (language) {
            case JAVASCRIPT: return "console.log('Hello')" + how;
            case BASH: return "echo Hello" + how;
            case PYTHON:
            default: return "print('Hello')" + how;
        }
    }

    /** Appends {@code code} to {@code into} as text, coloured by the language's grammar. */
    static void highlight(String code, Language language, HTMLElement into) {
        Highlighter.highlightInto(code, language.wire(), into);
    }

    /** A small tag naming the language, as each turn shows it. */
    static HTMLElement tag(Language language) {
        HTMLElement tag = Dom.text("span", "language-tag language-" + language.wire(), label(language));
        tag.setAttribute("data-testid", "turn-language");
        tag.setAttribute("data-language", language.wire());
        return tag;
    }
}
