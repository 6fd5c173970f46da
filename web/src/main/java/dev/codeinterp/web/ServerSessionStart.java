package dev.codeinterp.web;

import dev.codeinterp.web.server.ServerSession;
import dev.codeinterp.web.server.Credentials;
import dev.codeinterp.web.server.SessionStarter;
import dev.codeinterp.web.view.ApiKeyForm;
import dev.codeinterp.web.view.PendingCells;
import dev.codeinterp.web.view.StatusLine;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * Getting a server session for a new conversation, as the page shows it: the status line says
 * what it waits for, the API key form appears above the held cells when the server wants a key,
 * and a refusal by a limit counts down to the next try. One start at a time; {@link #cancel}
 * (a new conversation, or one opened) makes its answer, if it still comes, be ignored.
 */
final class ServerSessionStart {
    interface Outcome {
        void sessionStarted(ServerSession session, String intro);

        /** No session and no retry: the sentence says why. */
        void sessionFailed(String sentence);
    }

    private final StatusLine status;
    private final PendingCells pending;
    private final HTMLElement page;
    private final Outcome outcome;
    private final ApiKeyForm keyForm = new ApiKeyForm(this::useKey);
    /** The start under way, or null. */
    private SessionStarter starter;

    /** {@code page} holds the key form, above the pending cells' list. */
    ServerSessionStart(StatusLine status, PendingCells pending, HTMLElement page, Outcome outcome) {
        this.status = status;
        this.pending = pending;
        this.page = page;
        this.outcome = outcome;
    }

    /** Starts getting a session; {@code intro} goes with it to the conversation it opens. */
    void begin(String intro) {
        cancel();
        status.describe("Server");
        status.connection("starting a session");
        pending.waitingFor("waiting for the session to start…");
        starter = new SessionStarter(new Starting(intro), Credentials.inThisBrowser());
        starter.start();
    }

    /** Stops getting a session: its answer, if it still comes, is ignored. */
    void cancel() {
        if (starter != null) {
            starter.cancel();
            starter = null;
        }
        hideKeyForm();
    }

    private void useKey(String key) {
        hideKeyForm();
        status.connection("starting a session");
        status.problem(null);
        pending.waitingFor("waiting for the session to start…");
        if (starter != null) {
            starter.useKey(key);
        }
    }

    private void hideKeyForm() {
        if (keyForm.root().getParentNode() != null) {
            page.removeChild(keyForm.root());
        }
    }

    /** What becomes of one start. */
    private final class Starting implements SessionStarter.Listener {
        private final String intro;

        Starting(String intro) {
            this.intro = intro;
        }

        @Override
        public void started(ServerSession session) {
            outcome.sessionStarted(session, intro);
        }

        @Override
        public void keyNeeded(boolean refused) {
            status.connection("API key needed");
            status.problem(refused ? "The API key was not accepted." : null);
            pending.waitingFor("waiting for the API key…");
            if (keyForm.root().getParentNode() == null) {
                page.insertBefore(keyForm.root(), pending.root());
            }
            keyForm.ask(refused);
        }

        @Override
        public void waiting(String sentence) {
            status.connection("waiting for the server");
            status.problem(sentence);
            pending.waitingFor("waiting for the session…");
        }

        @Override
        public void failed(String sentence) {
            starter = null;
            status.connection("offline");
            outcome.sessionFailed(sentence);
        }
    }
}
