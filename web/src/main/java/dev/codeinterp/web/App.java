package dev.codeinterp.web;

import dev.codeinterp.model.ClientMessage;
import dev.codeinterp.model.Event;
import dev.codeinterp.model.ServerMessage;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.json.JsonObject;
import org.teavm.jso.dom.html.HTMLElement;

/**
 * The page's composition root. The session id lives in the URL (#/s/<id>); its token only in
 * localStorage, never in the URL or a log.
 */
public final class App implements SessionConnection.Listener, Composer.Actions {
    private static final String HASH_PREFIX = "/s/";

    private final StatusLine status = new StatusLine();
    private final Composer composer = new Composer(this);
    private ConversationView conversation;
    private SessionConnection connection;
    private final HTMLElement page = Dom.el("div", "page");

    public static void main(String[] args) {
        new App().start();
    }

    private void start() {
        HTMLElement header = Dom.el("header", "topbar");
        header.appendChild(Dom.text("h1", "title", "codeinterp"));
        header.appendChild(status.root());
        Dom.document().getBody().appendChild(header);
        Dom.document().getBody().appendChild(page);
        Dom.document().getBody().appendChild(composer.root());
        String hash = Browser.hash();
        String id = hash.startsWith("#" + HASH_PREFIX) ? hash.substring(1 + HASH_PREFIX.length()) : null;
        String token = id == null ? null : Browser.storageGet("codeinterp.token." + id);
        if (id != null && token != null) {
            open(id, token);
        } else {
            newSession();
        }
        composer.focus();
    }

    private void open(String id, String token) {
        if (connection != null) {
            connection.close();
        }
        if (conversation != null) {
            page.removeChild(conversation.root());
        }
        conversation = new ConversationView(this::finished);
        page.appendChild(conversation.root());
        Browser.replaceHash(HASH_PREFIX + id);
        connection = new SessionConnection(id, token, this);
        connection.connect();
    }

    @Override
    public void newSession() {
        status.connection("starting a session");
        Browser.request("POST", "/api/v1/sessions", "", (code, body) -> {
            if (code != 201) {
                String message = "could not start a session";
                try {
                    message = JsonObject.parse(body).optString("error", message);
                } catch (RuntimeException ignored) {
                    // keep the generic message
                }
                status.connection("offline");
                status.problem(message);
                return;
            }
            JsonObject created = JsonObject.parse(body);
            Browser.storageSet("codeinterp.token." + created.string("id"), created.string("token"));
            status.problem(null);
            open(created.string("id"), created.string("token"));
        });
    }

    private void finished(Event.Finished f) {
        status.lastRun(f);
        composer.setRunning(conversation.running());
    }

    @Override
    public void run(String code) {
        if (connection != null && connection.send(new ClientMessage.Execute(code, null))) {
            composer.setRunning(true);
        }
    }

    @Override
    public void interrupt() {
        if (connection != null) {
            connection.send(new ClientMessage.Interrupt());
        }
    }

    @Override
    public void restart() {
        if (connection != null) {
            connection.send(new ClientMessage.Restart());
        }
    }

    @Override
    public void onWelcome(ServerMessage.Welcome welcome) {
        status.runtime(welcome.runtime());
        status.problem(null);
    }

    @Override
    public void onEvent(SessionEvent event) {
        conversation.apply(event);
        if (event.event() instanceof Event.Queued q) {
            composer.remember(q.code());
            composer.setRunning(true);
        }
    }

    @Override
    public void onState(String state) {
        status.connection(state);
    }

    @Override
    public void onProblem(String message) {
        status.problem(message);
    }
}
