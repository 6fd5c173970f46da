package dev.codeinterp.web.view;

import dev.codeinterp.model.Event;
import org.teavm.jso.dom.html.HTMLElement;

/** A cell's {@code install} event as one line of its turn: "Installed is-odd (JavaScript) in 1.2 s". */
final class InstallLine {
    private InstallLine() {
    }

    static HTMLElement render(Event.Install install) {
        HTMLElement line = Dom.text("div", "output output-install", sentence(install));
        line.setAttribute("data-testid", "install");
        line.setAttribute("data-cached", String.valueOf(install.cached()));
        return line;
    }

    static String sentence(Event.Install install) {
        String names = install.packages().isEmpty() ? "packages" : String.join(", ", install.packages());
        return "Installed " + names + " (" + CellLanguage.label(install.language()) + ") "
                + (install.cached() ? "from cache " : "") + "in " + Format.duration(install.durationMs());
    }
}
