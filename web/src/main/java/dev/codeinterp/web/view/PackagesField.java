package dev.codeinterp.web.view;

import dev.codeinterp.model.Language;
import dev.codeinterp.web.bindings.Browser;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The composer's "Packages" field: names (comma or space separated) the next cells of the picked
 * language need, installed by the server before the code runs. Python and JavaScript cells in server
 * mode only: bash takes no packages, and local mode has no fetch step (its Python loads a cell's
 * imports by itself). The server's allowlist decides; this field only splits what was typed.
 */
public final class PackagesField {
    /** Where each conversation keeps what was typed, per language. */
    public interface Store {
        String textFor(Language language);

        void edited(Language language, String text);
    }

    /** Enough for 32 long names; anything longer is the server's to refuse, not the page's to hold. */
    private static final int MAX_CHARS = 8000;

    private final HTMLElement root = Dom.el("label", "packages-field");
    private final HTMLElement input = Dom.el("input", "packages-input");
    private final Store store;
    private Language language = Language.PYTHON;
    private boolean local;

    public PackagesField(Store store) {
        this.store = store;
        input.setAttribute("type", "text");
        input.setAttribute("data-testid", "packages");
        input.setAttribute("maxlength", String.valueOf(MAX_CHARS));
        input.setAttribute("spellcheck", "false");
        input.setAttribute("autocapitalize", "off");
        input.setAttribute("autocomplete", "off");
        input.addEventListener("input", e -> store.edited(language, Browser.value(input)));
        root.appendChild(Dom.text("span", "packages-label", "Packages"));
        root.appendChild(input);
        show(language);
    }

    public HTMLElement root() {
        return root;
    }

    /** Local mode: the field stays in view, disabled, saying why. */
    public void setLocal(boolean localMode) {
        local = localMode;
        show(language);
    }

    /** Shows the packages kept for {@code chosen} cells; hidden for bash, which takes none. */
    void show(Language chosen) {
        language = chosen;
        root.getStyle().setProperty("display", chosen == Language.BASH ? "none" : "");
        Browser.setValue(input, local ? "" : store.textFor(chosen));
        if (local) {
            input.setAttribute("disabled", "");
            input.setAttribute("placeholder", "server mode only");
            describe("Packages install in server mode only. Here, in this browser, Python loads a cell's imports "
                    + "by itself (Pyodide's own packages); JavaScript has only what the runtime brings.");
            return;
        }
        input.removeAttribute("disabled");
        input.setAttribute("placeholder", chosen == Language.JAVASCRIPT ? "e.g. lodash dayjs" : "e.g. openpyxl faker");
        describe(CellLanguage.label(chosen) + " packages to install before the next cells run, comma or space separated "
                + "(only those on the server's allowlist; already installed ones are not asked for again)");
    }

    private void describe(String text) {
        input.setAttribute("title", text);
        input.setAttribute("aria-label", text);
    }

    /** The names in {@code text}: split at commas and white space, empty ones dropped, each once, in order. */
    public static List<String> names(String text) {
        Set<String> names = new LinkedHashSet<>();
        if (text != null) {
            for (String name : text.split("[,\\s]+")) {
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        }
        return new ArrayList<>(names);
    }
}
