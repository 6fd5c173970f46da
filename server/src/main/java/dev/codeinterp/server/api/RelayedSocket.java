package dev.codeinterp.server.api;

import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.model.wire.WireCodec;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.core.CloseStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * One client socket relayed to the session's node ({@link SocketRelay}): the client's frames go to
 * the owner and the owner's to the client, unchanged and in order; either side's close closes the
 * other, the owner's with its own code. Both legs are bounded as a local socket is: the owner's
 * frames reach the client through the client's {@link Outbox}, the client's reach the owner through
 * one of their own, and those sent while the owner's leg connects wait, up to an Outbox's worth.
 * Public only for Jetty, which calls a listener's methods through a public lookup.
 */
public final class RelayedSocket implements Session.Listener.AutoDemanding {
    private static final Logger log = LoggerFactory.getLogger(RelayedSocket.class);
    private final Session client;
    private final Outbox toClient;
    private final String elsewhere;
    private final Deque<String> waiting = new ArrayDeque<>();
    private long waitingChars;
    private Outbox toOwner;
    private Session owner;
    private boolean closed;
    private volatile boolean dropWelcome;
    private volatile int handshakeStatus;

    RelayedSocket(Session client, Outbox toClient, List<String> first, boolean resumed, String elsewhere) {
        this.client = client;
        this.toClient = toClient;
        this.elsewhere = elsewhere;
        this.dropWelcome = resumed;
        for (String frame : first) {
            waiting.addLast(frame);
            waitingChars += frame.length();
        }
    }

    /** A frame from the client, for the owner. */
    void send(String frame) {
        synchronized (this) {
            if (closed) {
                return;
            }
            if (toOwner != null) {
                toOwner.send(frame);
                return;
            }
            if (waitingChars + frame.length() > Outbox.MAX_PENDING_CHARS) {
                closed = true; // the owner's leg takes too long to open: as a reader too slow, the client resumes later
                waiting.clear();
            } else {
                waiting.addLast(frame);
                waitingChars += frame.length();
                return;
            }
        }
        client.close(SessionSocket.CLOSE_TOO_SLOW, "the session's node is too slow to answer; reconnect to resume", Callback.NOOP);
    }

    /** The client's socket closed: the owner's leg closes with its code, or at once when it opens. */
    void clientClosed(int code, String reason) {
        Session open;
        synchronized (this) {
            closed = true;
            waiting.clear();
            open = owner;
        }
        if (open != null) {
            open.close(CloseStatus.isTransmittableStatusCode(code) ? code : CloseStatus.NORMAL, reason, Callback.NOOP);
        }
    }

    @Override
    public void onWebSocketOpen(Session session) {
        synchronized (this) {
            owner = session;
            if (!closed) {
                toOwner = new Outbox(session, SessionSocket.CLOSE_TOO_SLOW);
                for (String frame : waiting) {
                    toOwner.send(frame); // first the hello, then what the client sent meanwhile, in order
                }
                waiting.clear();
                waitingChars = 0;
                return;
            }
        }
        session.close(CloseStatus.NORMAL, "the client left", Callback.NOOP);
    }

    @Override
    public void onWebSocketText(String frame) {
        if (dropWelcome) {
            dropWelcome = false; // a socket whose session moved had its welcome from the node it first reached
            try {
                if (WireCodec.decodeServerMessage(frame) instanceof ServerMessage.Welcome) {
                    return;
                }
            } catch (JsonException e) {
                // not ours to judge: passed on as it came
            }
        }
        toClient.send(frame);
    }

    @Override
    public void onWebSocketClose(int code, String reason) {
        synchronized (this) {
            if (owner == null) {
                return; // never opened: failed() tells the client
            }
            closed = true;
            waiting.clear();
        }
        if (CloseStatus.isTransmittableStatusCode(code)) {
            client.close(code, reason, Callback.NOOP);
        } else { // the owner's leg broke (1006 and the like cannot be sent): the client connects again
            client.close(SessionSocket.CLOSE_ELSEWHERE, "the session's node went out of reach; connect again", Callback.NOOP);
        }
    }

    @Override
    public void onWebSocketError(Throwable cause) {
        // a leg that never opened is told by SocketRelay (failed); one that broke ends in onWebSocketClose
        log.debug("relayed socket: {}", cause.toString());
    }

    /** The owner's answer to the relayed upgrade: a 403 is its Host or Origin rule refusing this client. */
    void answered(int status) {
        handshakeStatus = status;
    }

    /**
     * The owner's leg could not be opened: the client hears what it would have without a relay (the
     * session is elsewhere, out of reach now), or, when the owner refused the upgrade, that it did.
     */
    void failed() {
        synchronized (this) {
            if (closed || owner != null) {
                return;
            }
            closed = true;
            waiting.clear();
        }
        if (handshakeStatus == 403) {
            toClient.send(WireCodec.encode(new ServerMessage.ProtocolError(
                    "the session's node refused this connection: its Host or Origin is not allowed there")));
            client.close(SessionSocket.CLOSE_REFUSED, "refused by the session's node", Callback.NOOP);
        } else {
            toClient.send(WireCodec.encode(new ServerMessage.ProtocolError(elsewhere + ", which cannot be reached from here now")));
            client.close(SessionSocket.CLOSE_ELSEWHERE, "session on another node", Callback.NOOP);
        }
    }
}
