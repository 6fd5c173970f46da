package dev.codeinterp.web.view;

import org.teavm.jso.browser.Window;
import org.teavm.jso.dom.html.HTMLDocument;
import org.teavm.jso.dom.html.HTMLElement;

/** Builds DOM with text APIs only: nothing the app shows is ever parsed as markup. */
public final class Dom {
    private Dom() {
    }

    public static HTMLDocument document() {
        return Window.current().getDocument();
    }

    public static HTMLElement el(String tag, String className) {
        HTMLElement e = document().createElement(tag);
        if (className != null) {
            e.setClassName(className);
        }
        return e;
    }

    public static HTMLElement text(String tag, String className, String text) {
        HTMLElement e = el(tag, className);
        e.appendChild(document().createTextNode(text));
        return e;
    }

    static HTMLElement button(String label, String testId, String title) {
        HTMLElement b = text("button", "btn", label);
        b.setAttribute("type", "button");
        if (testId != null) {
            b.setAttribute("data-testid", testId);
        }
        b.setAttribute("title", title);
        // the accessible name starts with what the button shows (WCAG's label in name), the title after it
        b.setAttribute("aria-label", title.toLowerCase().startsWith(label.toLowerCase()) ? title : label + ": " + title);
        return b;
    }

    /** Replaces the element's content with one text node. */
    static void setText(HTMLElement e, String text) {
        clear(e);
        e.appendChild(document().createTextNode(text));
    }

    public static void clear(HTMLElement e) {
        while (e.getFirstChild() != null) {
            e.removeChild(e.getFirstChild());
        }
    }
}
