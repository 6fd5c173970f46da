package dev.codeinterp.web.view;

import dev.codeinterp.web.bindings.Browser;
import org.teavm.jso.JSBody;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.Map;

/**
 * One MIME bundle, in the richest form that is safe: images as images, SVG only as an image,
 * HTML only inside a sandboxed frame without allow-same-origin, everything else as text.
 */
public final class BundleView {
    private BundleView() {
    }

    static HTMLElement render(Map<String, Object> data) {
        if (data.get("image/png") instanceof String png) {
            return image("data:image/png;base64," + png, "png");
        }
        if (data.get("image/jpeg") instanceof String jpeg) {
            return image("data:image/jpeg;base64," + jpeg, "jpg");
        }
        if (data.get("image/svg+xml") instanceof String svg) {
            return image("data:image/svg+xml;base64," + base64(svg), "svg");
        }
        if (data.get("text/html") instanceof String html) {
            return frame(html);
        }
        Object text = data.get("text/plain");
        if (text == null) {
            text = data.get("text/markdown");
        }
        return Dom.text("pre", "plain", text == null ? "" : String.valueOf(text));
    }

    private static HTMLElement image(String src, String extension) {
        HTMLElement box = Dom.el("figure", "image-output");
        HTMLElement img = Dom.el("img", null);
        img.setAttribute("src", src);
        img.setAttribute("alt", "output image");
        img.setAttribute("tabindex", "0");
        img.addEventListener("click", e -> box.getClassList().toggle("enlarged"));
        HTMLElement download = Dom.text("a", "btn small", "Download");
        download.setAttribute("href", src);
        download.setAttribute("download", "output." + extension);
        box.appendChild(img);
        box.appendChild(download);
        return box;
    }

    /** HTML runs in /frame.html's opaque origin under its own CSP, never in the app's origin. */
    private static HTMLElement frame(String html) {
        HTMLElement frame = Dom.el("iframe", "html-output");
        frame.setAttribute("sandbox", "allow-scripts");
        frame.setAttribute("src", "/frame.html");
        frame.setAttribute("title", "HTML output");
        frame.setAttribute("referrerpolicy", "no-referrer");
        Browser.sendWhenLoaded(frame, html);
        FrameSizer.track(frame);
        return frame;
    }

    @JSBody(params = "text", script = "return btoa(unescape(encodeURIComponent(text)));")
    private static native String base64(String text);
}
