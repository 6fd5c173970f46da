package dev.codeinterp.web.view;

import org.teavm.jso.dom.html.HTMLElement;

/**
 * One stretch of the assistant's words, streamed piece by piece. Rendered as plain text that keeps
 * its line breaks (CSS white-space: pre-wrap), never parsed as markup; this is the one place to
 * switch to a Markdown renderer (re-render {@link #text} on each piece).
 */
final class AssistantText {
    private final HTMLElement root = Dom.el("div", "assistant-text");
    private final StringBuilder text = new StringBuilder();

    AssistantText() {
        root.setAttribute("data-testid", "assistant-text");
    }

    HTMLElement root() {
        return root;
    }

    void append(String piece) {
        text.append(piece);
        root.appendChild(Dom.document().createTextNode(piece));
    }

    String text() {
        return text.toString();
    }
}
