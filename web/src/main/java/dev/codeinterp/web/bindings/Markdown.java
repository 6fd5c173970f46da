package dev.codeinterp.web.bindings;

import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSMethod;
import org.teavm.jso.JSModule;
import org.teavm.jso.JSObject;
import org.teavm.jso.JSTopLevel;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * Markdown and LaTeX rendered safely (public/js/markdown.js): markdown-it without raw HTML,
 * sanitized by DOMPurify into DOM, formulas typeset by KaTeX, links opening in a new tab without
 * opener or referrer. The one way any view shows Markdown. The libraries load on first use, so the
 * content is appended a moment later the first time (calls append in call order): give each call
 * its own (empty) target.
 */
@JSModule("./js/markdown.js")
public abstract class Markdown implements JSObject {
    private Markdown() {
    }

    /** Appends {@code markdown} to {@code target}, with {@code $...$} and {@code $$...$$} as formulas. */
    @JSTopLevel
    @JSMethod("renderMarkdown")
    public static native void render(HTMLElement target, String markdown);

    @JSFunctor
    public interface Done extends JSObject {
        void call();
    }

    /** As {@link #render}, then {@code done} once {@code target} holds the rendered text. */
    @JSTopLevel
    @JSMethod("renderMarkdownThen")
    public static native void render(HTMLElement target, String markdown, Done done);

    /** Appends a {@code text/latex} output to {@code target}, typeset by KaTeX. */
    @JSTopLevel
    @JSMethod("renderLatex")
    public static native void renderLatex(HTMLElement target, String latex);
}
