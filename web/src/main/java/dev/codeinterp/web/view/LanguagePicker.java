package dev.codeinterp.web.view;

import dev.codeinterp.model.Language;
import dev.codeinterp.web.bindings.Browser;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.function.Consumer;

/** The composer's {@code <select>} of cell languages: Python, JavaScript, Bash. */
final class LanguagePicker {
    private LanguagePicker() {
    }

    static HTMLElement create(Consumer<Language> onPick) {
        HTMLElement select = Dom.el("select", "language-picker");
        select.setAttribute("data-testid", "language");
        select.setAttribute("title", "The language of the next cell");
        select.setAttribute("aria-label", "Cell language");
        for (Language language : Language.values()) {
            HTMLElement option = Dom.text("option", null, CellLanguage.label(language));
            option.setAttribute("value", language.wire());
            select.appendChild(option);
        }
        select.addEventListener("change", e -> onPick.accept(Language.fromWire(Browser.value(select))));
        return select;
    }
}
