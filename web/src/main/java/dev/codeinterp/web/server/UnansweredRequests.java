package dev.codeinterp.web.server;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Cells and prompts sent on the current socket and not answered yet, in one line, oldest first.
 * The server answers each {@code execute} and each {@code prompt} on a socket in the order they
 * came, with its own event ({@code queued}, {@code prompt}) or a {@code protocol_error}; so an
 * answer always belongs to the oldest request, whichever kind it is. (Two lines, one per kind,
 * pinned a refused prompt on a cell sent after it.)
 */
final class UnansweredRequests {
    enum Kind { CELL, PROMPT }

    /** A cell's code or a prompt's text, as sent. */
    record Request(Kind kind, String text) {
    }

    private final ArrayDeque<Request> sent = new ArrayDeque<>();

    void sent(Kind kind, String text) {
        sent.addLast(new Request(kind, text));
    }

    /**
     * A live {@code queued} or {@code prompt} event: it answers the oldest request when that is of
     * this kind with this text; otherwise it is someone else's (an assistant's tool call, another tab).
     */
    boolean accepted(Kind kind, String text) {
        Request oldest = sent.peekFirst();
        if (oldest != null && oldest.kind() == kind && oldest.text().equals(text)) {
            sent.pollFirst();
            return true;
        }
        return false;
    }

    /** A {@code protocol_error}: the oldest request, which it refused, or null when nothing waits. */
    Request refused() {
        return sent.pollFirst();
    }

    /**
     * The socket dropped: the cells sent on it (the next welcome's replay says whether the server took
     * them), oldest first. Prompts are forgotten: a prompt the server took shows in the replay anyway.
     */
    List<String> dropped() {
        List<String> cells = new ArrayList<>();
        for (Request r : sent) {
            if (r.kind() == Kind.CELL) {
                cells.add(r.text());
            }
        }
        sent.clear();
        return cells;
    }
}
