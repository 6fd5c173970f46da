package dev.codeinterp.web.view;

import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.bindings.Theme;
import org.teavm.jso.dom.html.HTMLElement;

/** The top bar's theme picker: Auto (the system's), Light or Dark, kept in this browser. */
public final class ThemeSwitch {
    private final HTMLElement root = Dom.el("select", "theme-switch");

    public ThemeSwitch() {
        Theme.start();
        root.setAttribute("data-testid", "theme-switch");
        root.setAttribute("aria-label", "Theme");
        root.setAttribute("title", "Theme: follow the system, or always light or dark");
        option("auto", "Auto theme");
        option("light", "Light");
        option("dark", "Dark");
        Browser.setValue(root, Theme.chosen());
        root.addEventListener("change", e -> Theme.choose(Browser.value(root)));
    }

    private void option(String value, String label) {
        HTMLElement o = Dom.text("option", null, label);
        o.setAttribute("value", value);
        root.appendChild(o);
    }

    public HTMLElement root() {
        return root;
    }
}
