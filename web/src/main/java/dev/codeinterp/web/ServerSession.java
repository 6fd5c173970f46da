package dev.codeinterp.web;

import dev.codeinterp.model.ClientMessage;
import dev.codeinterp.model.ServerMessage;
import dev.codeinterp.model.WireCodec;
import dev.codeinterp.model.json.JsonObject;
import org.teavm.jso.browser.Window;
import org.teavm.jso.websocket.WebSocket;

/**
 * A server session: its sandbox runs the code, its WebSocket is kept open. On every (re)connect it
 * says hello with the last seq it rendered, so the server replays exactly what was missed; events
 * at or below that seq are dropped. The token lives in localStorage only, never in a URL.
 */
final class ServerSession implements Interpreter {
    static final String ROUTE_PREFIX = "/s/";
    private static final String TOKEN_KEY = "codeinterp.token.";

    interface Created {
        /** Exactly one of the two is non-null. */
        void created(ServerSession session, String error);
    }

    private final String sessionId;
    private final String token;
    private final ServerFiles files;
    private Listener listener;
    private WebSocket socket;
    private long lastSeq;
    private int attempt;
    private boolean open;
    private boolean gone;

    private ServerSession(String sessionId, String token) {
        this.sessionId = sessionId;
        this.token = token;
        this.files = new ServerFiles(sessionId, token);
    }

    /** Reopens a session this browser created earlier; null if it holds no token for it. */
    static ServerSession reopen(String sessionId) {
        String token = Browser.storageGet(TOKEN_KEY + sessionId);
        return token == null ? null : new ServerSession(sessionId, token);
    }

    static void create(Created callback) {
        Browser.request("POST", "/api/v1/sessions", "", (code, body) -> {
            if (code != 201) {
                callback.created(null, ServerFiles.errorOf(body, "Could not start a server session (" + code + ")."));
                return;
            }
            JsonObject created = JsonObject.parse(body);
            Browser.storageSet(TOKEN_KEY + created.string("id"), created.string("token"));
            callback.created(new ServerSession(created.string("id"), created.string("token")), null);
        });
    }

    @Override
    public void connect(Listener listener) {
        this.listener = listener;
        connect();
    }

    private void connect() {
        if (gone) {
            return;
        }
        listener.onState(attempt == 0 ? "connecting" : "reconnecting");
        WebSocket ws = WebSocket.create(Browser.webSocketBase() + "/api/v1/sessions/" + sessionId + "/ws");
        socket = ws;
        ws.onOpen(e -> ws.send(WireCodec.encode(new ClientMessage.Hello(token, lastSeq))));
        ws.onMessage(e -> receive(e.getDataAsString()));
        ws.onClose(e -> {
            open = false;
            if (e.getCode() == 4404) {
                gone = true;
                listener.onState("session not found");
                listener.onProblem("This session no longer exists on the server. Start a new session.");
                return;
            }
            if (socket == ws && !gone) {
                scheduleReconnect();
            }
        });
    }

    private void receive(String frame) {
        if (gone) {
            return;
        }
        ServerMessage message;
        try {
            message = WireCodec.decodeServerMessage(frame);
        } catch (RuntimeException e) {
            return;
        }
        if (message instanceof ServerMessage.Welcome w) {
            attempt = 0;
            open = true;
            listener.onState("connected");
            listener.onDescription("Server · " + ("runsc".equals(w.runtime()) ? "gVisor" : w.runtime()));
            listener.onProblem(null);
        } else if (message instanceof ServerMessage.EventFrame f) {
            if (f.event().seq() <= lastSeq) {
                return;
            }
            lastSeq = f.event().seq();
            listener.onEvent(f.event());
        } else if (message instanceof ServerMessage.ProtocolError p) {
            listener.onProblem(p.message());
        }
    }

    private void scheduleReconnect() {
        attempt++;
        listener.onState("reconnecting");
        int delay = Math.min(10_000, 250 * (1 << Math.min(attempt, 6)));
        Window.setTimeout(this::connect, delay);
    }

    @Override
    public boolean execute(String code) {
        return send(new ClientMessage.Execute(code, null));
    }

    @Override
    public void interrupt() {
        send(new ClientMessage.Interrupt());
    }

    @Override
    public void restart() {
        send(new ClientMessage.Restart());
    }

    @Override
    public WorkspaceFiles files() {
        return files;
    }

    @Override
    public String route() {
        return ROUTE_PREFIX + sessionId;
    }

    private boolean send(ClientMessage message) {
        if (!open) {
            listener.onProblem("Not connected yet; try again in a moment.");
            return false;
        }
        socket.send(WireCodec.encode(message));
        return true;
    }

    /** Closes for good (a new conversation replaces this one); the session lives on on the server. */
    @Override
    public void close() {
        gone = true;
        if (socket != null) {
            socket.close();
        }
    }
}
