package dev.codeinterp.web;

import dev.codeinterp.model.ClientMessage;
import dev.codeinterp.model.ServerMessage;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.WireCodec;
import org.teavm.jso.browser.Window;
import org.teavm.jso.websocket.WebSocket;

/**
 * The session's WebSocket, kept open: on every (re)connect it says hello with the last seq it
 * rendered, so the server replays exactly what was missed. Events at or below that seq are dropped.
 */
final class SessionConnection {
    interface Listener {
        void onWelcome(ServerMessage.Welcome welcome);

        void onEvent(SessionEvent event);

        void onState(String state);

        void onProblem(String message);
    }

    private final String sessionId;
    private final String token;
    private final Listener listener;
    private WebSocket socket;
    private long lastSeq;
    private int attempt;
    private boolean open;
    private boolean gone;

    SessionConnection(String sessionId, String token, Listener listener) {
        this.sessionId = sessionId;
        this.token = token;
        this.listener = listener;
    }

    void connect() {
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
            listener.onWelcome(w);
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

    boolean send(ClientMessage message) {
        if (!open) {
            listener.onProblem("Not connected yet; try again in a moment.");
            return false;
        }
        socket.send(WireCodec.encode(message));
        return true;
    }

    /** Closes for good (a new session replaces this one). */
    void close() {
        gone = true;
        if (socket != null) {
            socket.close();
        }
    }
}
