package dev.codeinterp.web.view;

import dev.codeinterp.model.Event;
import org.teavm.jso.dom.html.HTMLElement;
import org.teavm.jso.dom.xml.NodeList;

/** update_display_data: the outputs shown with a display id are replaced where they are. */
final class DisplayUpdates {
    private DisplayUpdates() {
    }

    /** Replaces every output shown with the update's display id, in this turn (attached or not) and earlier ones. */
    static void apply(HTMLElement turnOutputs, Event.UpdateDisplayData update) {
        replace(turnOutputs.querySelectorAll("[data-display-id]"), update);
        replace(Dom.document().querySelectorAll("[data-display-id]"), update);
    }

    private static void replace(NodeList<? extends HTMLElement> shown, Event.UpdateDisplayData update) {
        for (int i = 0; i < shown.getLength(); i++) {
            HTMLElement block = shown.get(i);
            if (update.displayId().equals(block.getAttribute("data-display-id"))) { // compared, never put in a selector
                while (block.getFirstChild() != null) {
                    block.removeChild(block.getFirstChild());
                }
                block.appendChild(BundleView.render(update.data()));
            }
        }
    }
}
