package dev.codeinterp.web.view;

import org.teavm.jso.dom.html.HTMLElement;

/**
 * A cell (or question) the server did not take, e.g. one asking for a package off its allowlist:
 * nothing ran and nothing is stored, so this note lives until a reload; the code is back in the
 * composer. The server's words name the package; they are shown as text.
 */
final class RefusedCell {
    private RefusedCell() {
    }

    static HTMLElement render(String code, String why) {
        HTMLElement view = Dom.el("article", "turn refused");
        view.setAttribute("data-testid", "refused-turn");
        HTMLElement header = Dom.el("div", "turn-code");
        header.appendChild(Dom.text("pre", "code", code));
        view.appendChild(header);
        HTMLElement reason = Dom.text("div", "output output-refused", why);
        reason.setAttribute("data-testid", "refusal");
        reason.setAttribute("role", "alert");
        HTMLElement outputs = Dom.el("div", "outputs");
        outputs.appendChild(reason);
        view.appendChild(outputs);
        view.appendChild(Dom.text("div", "turn-footer", "not run"));
        return view;
    }
}
