package dev.codeinterp.web.view;

import org.teavm.jso.JSBody;
import org.teavm.jso.dom.html.HTMLElement;

/** Small line icons drawn as SVG elements (built node by node, no markup strings), in the text's colour. */
final class Icon {
    /** A pencil: rename. */
    static final String PENCIL = "M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4";
    /** A bin: delete. */
    static final String BIN = "M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6";

    private Icon() {
    }

    /** An icon of {@code path} (a 24×24 stroke path), hidden from assistive technology: its button carries the label. */
    @JSBody(params = "path", script = "var ns = 'http://www.w3.org/2000/svg';"
            + "var svg = document.createElementNS(ns, 'svg');"
            + "svg.setAttribute('viewBox', '0 0 24 24'); svg.setAttribute('width', '16'); svg.setAttribute('height', '16');"
            + "svg.setAttribute('aria-hidden', 'true'); svg.setAttribute('focusable', 'false'); svg.setAttribute('class', 'icon');"
            + "var p = document.createElementNS(ns, 'path'); p.setAttribute('d', path);"
            + "p.setAttribute('fill', 'none'); p.setAttribute('stroke', 'currentColor'); p.setAttribute('stroke-width', '1.8');"
            + "p.setAttribute('stroke-linecap', 'round'); p.setAttribute('stroke-linejoin', 'round');"
            + "svg.appendChild(p); return svg;")
    static native HTMLElement of(String path);
}
