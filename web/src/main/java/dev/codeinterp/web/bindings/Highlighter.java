package dev.codeinterp.web.bindings;

import org.teavm.jso.JSModule;
import org.teavm.jso.JSObject;
import org.teavm.jso.JSTopLevel;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * Syntax highlighting by highlight.js (public/js/highlight.js, over the library's own ES-module
 * build that we serve): the code is appended as text nodes and spans, never as markup.
 */
@JSModule("./js/highlight.js")
public abstract class Highlighter implements JSObject {
    private Highlighter() {
    }

    /** Appends {@code code} to {@code into}, coloured as {@code language} (a {@code Language} wire name). */
    @JSTopLevel
    public static native void highlightInto(String code, String language, HTMLElement into);
}
