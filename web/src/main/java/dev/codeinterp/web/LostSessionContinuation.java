package dev.codeinterp.web;

import dev.codeinterp.web.view.ConversationView;
import dev.codeinterp.web.view.LostSessionNotice;

/**
 * A conversation whose server session was lost with its node, as the page goes on from it: a notice
 * at its end gives the reason and offers a new session; once that session starts, the same
 * conversation goes on in it. Opening another conversation meanwhile (a new one, local mode, Back)
 * cancels this: a session started for it then opens as a new conversation, or is ignored, as any
 * start the page moved on from.
 */
final class LostSessionContinuation {
    /** Starts a new server session (the notice's button was pressed); {@link #take} says what it is for. */
    private final Runnable starter;
    /** The notice at the end of the conversation shown, or null. */
    private LostSessionNotice notice;
    /** The conversation the notice ends. */
    private ConversationView lost;
    /** The conversation waiting for the session being started, or null. */
    private ConversationView waiting;

    LostSessionContinuation(Runnable starter) {
        this.starter = starter;
    }

    /** The session of {@code conversation} was lost for {@code reason}: the notice at its end says so and offers a new one. */
    void offer(ConversationView conversation, String reason) {
        cancel();
        lost = conversation;
        notice = new LostSessionNotice(reason, () -> start(conversation));
        conversation.end(notice.root());
    }

    private void start(ConversationView conversation) {
        if (conversation != lost || waiting != null) {
            return; // a notice the page moved on from
        }
        waiting = conversation;
        notice.starting();
        starter.run();
    }

    /** The conversation a session that just started goes on in (its notice keeps only the reason), or null: a new conversation. */
    ConversationView take() {
        ConversationView kept = waiting;
        waiting = null;
        if (kept != null) {
            notice.continued();
            notice = null;
            lost = null;
        }
        return kept;
    }

    /** No session came for the conversation waiting: its notice offers one again. */
    void failed() {
        if (waiting != null) {
            waiting = null;
            notice.offerAgain();
        }
    }

    /** The page moved on to another conversation: a session started now is not for the lost one. */
    void cancel() {
        waiting = null;
        notice = null;
        lost = null;
    }
}
