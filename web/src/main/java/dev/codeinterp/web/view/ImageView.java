package dev.codeinterp.web.view;

import org.teavm.jso.dom.events.KeyboardEvent;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * An image output (a data: URL): click or Enter opens it full size in an overlay (click, Escape
 * or the close button closes it), and a link downloads it.
 */
final class ImageView {
    private ImageView() {
    }

    static HTMLElement render(String src, String extension) {
        HTMLElement box = Dom.el("figure", "image-output");
        HTMLElement img = Dom.el("img", null);
        img.setAttribute("src", src);
        img.setAttribute("alt", "output image");
        img.setAttribute("tabindex", "0");
        img.setAttribute("title", "Click to enlarge");
        img.addEventListener("click", e -> open(src));
        img.addEventListener("keydown", e -> {
            if ("Enter".equals(((KeyboardEvent) e).getKey())) {
                open(src);
            }
        });
        HTMLElement download = Dom.text("a", "btn small", "Download");
        download.setAttribute("href", src);
        download.setAttribute("download", "output." + extension);
        box.appendChild(img);
        box.appendChild(download);
        return box;
    }

    private static void open(String src) {
        HTMLElement overlay = Dom.el("div", "image-overlay");
        overlay.setAttribute("role", "dialog");
        overlay.setAttribute("aria-label", "Enlarged image");
        overlay.setAttribute("data-testid", "image-overlay");
        overlay.setAttribute("tabindex", "-1");
        HTMLElement big = Dom.el("img", null);
        big.setAttribute("src", src);
        big.setAttribute("alt", "output image, full size");
        HTMLElement close = Dom.button("×", "image-overlay-close", "Close");
        overlay.appendChild(big);
        overlay.appendChild(close);
        overlay.addEventListener("click", e -> overlay.delete());
        overlay.addEventListener("keydown", e -> {
            if ("Escape".equals(((KeyboardEvent) e).getKey())) {
                overlay.delete();
            }
        });
        Dom.document().getBody().appendChild(overlay);
        overlay.focus();
    }
}
