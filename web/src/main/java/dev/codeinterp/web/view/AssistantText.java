package dev.codeinterp.web.view;

import dev.codeinterp.web.bindings.Markdown;
import org.teavm.jso.browser.Window;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * One stretch of the assistant's words, streamed piece by piece. Each piece shows at once as text;
 * the whole is rendered as Markdown (the renderer of {@code text/markdown} outputs: markdown-it
 * without raw HTML, DOMPurify, KaTeX) at most every {@link #RENDER_EVERY_MS}, and swapped in once
 * rendered, with the pieces that came meanwhile after it: never a blank moment, and a long answer
 * costs a few renders, not one per token.
 */
final class AssistantText {
    private static final int RENDER_EVERY_MS = 80;

    private final HTMLElement root = Dom.el("div", "assistant-text");
    private final StringBuilder text = new StringBuilder();
    private boolean renderScheduled;
    private boolean rendering;

    AssistantText() {
        root.setAttribute("data-testid", "assistant-text");
    }

    HTMLElement root() {
        return root;
    }

    void append(String piece) {
        text.append(piece);
        root.appendChild(Dom.document().createTextNode(piece));
        scheduleRender();
    }

    String text() {
        return text.toString();
    }

    private void scheduleRender() {
        if (!renderScheduled && !rendering) {
            renderScheduled = true;
            Window.setTimeout(this::render, RENDER_EVERY_MS);
        }
    }

    private void render() {
        renderScheduled = false;
        rendering = true;
        int upTo = text.length();
        HTMLElement next = Dom.el("div", "assistant-markdown");
        Markdown.render(next, text.substring(0, upTo), () -> {
            rendering = false;
            Dom.clear(root);
            root.appendChild(next);
            if (text.length() > upTo) { // pieces that came while it rendered: as text until the next render
                root.appendChild(Dom.document().createTextNode(text.substring(upTo)));
                scheduleRender();
            }
        });
    }
}
