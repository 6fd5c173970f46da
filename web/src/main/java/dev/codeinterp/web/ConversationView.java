package dev.codeinterp.web;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.HashMap;
import java.util.Map;

/** The column of turns, one per execution, built from the session's events in seq order. */
final class ConversationView {
    interface FinishedListener {
        void onFinished(Event.Finished finished);
    }

    private final HTMLElement root = Dom.el("main", "conversation");
    private final HTMLElement empty = Dom.text("p", "empty", "Write Python below and press Shift+Enter to run it.");
    private final Map<String, TurnView> turns = new HashMap<>();
    private final FinishedListener onFinished;
    private int running;

    ConversationView(FinishedListener onFinished) {
        this.onFinished = onFinished;
        root.setAttribute("aria-live", "polite");
        root.appendChild(empty);
    }

    HTMLElement root() {
        return root;
    }

    boolean running() {
        return running > 0;
    }

    void apply(SessionEvent e) {
        boolean follow = Browser.nearBottom();
        TurnView turn = turns.get(e.executionId());
        if (turn == null) {
            turn = new TurnView(e.executionId().isEmpty());
            turns.put(e.executionId(), turn);
            if (empty.getParentNode() != null) {
                root.removeChild(empty);
            }
            root.appendChild(turn.root());
        }
        if (e.event().type() == dev.codeinterp.model.EventType.QUEUED) {
            running++;
        }
        turn.apply(e.event(), e.timestampMs());
        if (e.event() instanceof Event.Finished f) {
            running = Math.max(0, running - 1);
            onFinished.onFinished(f);
        }
        if (follow) {
            Browser.scrollIntoView(turn.root());
        }
    }
}
