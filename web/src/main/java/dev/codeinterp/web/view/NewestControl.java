package dev.codeinterp.web.view;

import dev.codeinterp.web.bindings.Scrolling;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * "↓ newest": shown when output arrives while the person reads further up (instead of the page
 * jumping); it scrolls to the end, and goes once the page is at its end by any means.
 */
final class NewestControl {
    private final HTMLElement root = Dom.button("\u2193 newest", "newest", "Scroll to the newest output");

    NewestControl() {
        root.getClassList().add("newest");
        hide();
        root.addEventListener("click", e -> {
            Scrolling.toEnd();
            hide();
        });
        Scrolling.onScroll(() -> {
            if (Scrolling.atEnd()) {
                hide();
            }
        });
    }

    HTMLElement root() {
        return root;
    }

    void show() {
        root.removeAttribute("hidden");
    }

    void hide() {
        root.setAttribute("hidden", "");
    }
}
