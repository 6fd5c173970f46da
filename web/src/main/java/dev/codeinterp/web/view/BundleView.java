package dev.codeinterp.web.view;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.bindings.Markdown;
import org.teavm.jso.JSBody;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.Map;

/**
 * One MIME bundle, shown as its richest type ({@link MimePrecedence}) in a form that is safe:
 * HTML and Plotly figures only inside a sandboxed frame without allow-same-origin, Markdown and
 * LaTeX sanitized and typeset, JSON as a tree of text, SVG only as an image, the rest as text.
 */
public final class BundleView {
    private BundleView() {
    }

    static HTMLElement render(Map<String, Object> data) {
        MimePrecedence.Chosen chosen = MimePrecedence.pick(data);
        if (chosen == null) {
            return Dom.text("pre", "plain", "");
        }
        Object value = chosen.value();
        switch (chosen.type()) {
            case MimePrecedence.PLOTLY:
                return frame("plotly-output", "Plotly chart", Json.write(value), true);
            case MimePrecedence.HTML:
                return frame("html-output", "HTML output", (String) value, false);
            case MimePrecedence.MARKDOWN: {
                HTMLElement box = Dom.el("div", "markdown-output");
                Markdown.render(box, (String) value);
                return box;
            }
            case MimePrecedence.LATEX: {
                HTMLElement box = Dom.el("div", "latex-output");
                Markdown.renderLatex(box, (String) value);
                return box;
            }
            case MimePrecedence.SVG:
                return ImageView.render("data:image/svg+xml;base64," + base64((String) value), "svg");
            case MimePrecedence.PNG:
                return ImageView.render("data:image/png;base64," + value, "png");
            case MimePrecedence.JPEG:
                return ImageView.render("data:image/jpeg;base64," + value, "jpg");
            case MimePrecedence.GIF:
                return ImageView.render("data:image/gif;base64," + value, "gif");
            case MimePrecedence.JSON:
                return JsonTreeView.render(value);
            default:
                return Dom.text("pre", "plain", (String) value);
        }
    }

    /**
     * HTML and Plotly figures render in /frame.html's opaque origin under its own CSP, never in the
     * app's origin; the frame is sized to the height it reports.
     */
    private static HTMLElement frame(String className, String title, String content, boolean plotly) {
        HTMLElement frame = Dom.el("iframe", className);
        frame.setAttribute("sandbox", "allow-scripts");
        frame.setAttribute("src", "/frame.html");
        frame.setAttribute("title", title);
        frame.setAttribute("referrerpolicy", "no-referrer");
        if (plotly) {
            Browser.sendPlotWhenLoaded(frame, content);
        } else {
            Browser.sendWhenLoaded(frame, content);
        }
        FrameSizer.track(frame);
        return frame;
    }

    @JSBody(params = "text", script = "return btoa(unescape(encodeURIComponent(text)));")
    private static native String base64(String text);
}
