package dev.codeinterp.server.api;

import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.runner.CellInput;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.assistant.Assistant;
import dev.codeinterp.server.config.Settings;
import dev.codeinterp.server.metrics.ServerMetrics;
import dev.codeinterp.server.session.HistoryUnavailableException;
import dev.codeinterp.server.session.LimitExceededException;
import dev.codeinterp.server.session.NoInputPendingException;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.session.SessionClosedException;
import dev.codeinterp.server.session.SessionManager;
import dev.codeinterp.server.session.SessionElsewhereException;
import dev.codeinterp.server.session.SessionLostException;
import dev.codeinterp.server.session.SessionNotFoundException;
import io.javalin.websocket.WsCloseContext;
import io.javalin.websocket.WsConfig;
import io.javalin.websocket.WsConnectContext;
import io.javalin.websocket.WsContext;
import io.javalin.websocket.WsMessageContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A session's WebSocket: the first frame must be {@code hello} with the token; then the client
 * gets the events it missed and the live ones, and may execute, interrupt and restart. A socket for
 * a session another node runs (at hello, or once the session moved there) is relayed to that node
 * ({@link SocketRelay}) and only moves frames from then on.
 */
final class SessionSocket {
    private static final Logger log = LoggerFactory.getLogger(SessionSocket.class);
    static final int CLOSE_NOT_FOUND = 4404;
    /** The session's node was lost: its history stays (REST), it cannot run again. */
    static final int CLOSE_LOST = 4410;
    /** The session runs on another node this one cannot reach for it now: connect again (through the front door). */
    static final int CLOSE_ELSEWHERE = 4503;
    /** The session's node refused the relayed socket (its Host or Origin rules), as it would have refused the client. */
    static final int CLOSE_REFUSED = 4403;
    static final int CLOSE_NO_HELLO = 4401;
    static final int CLOSE_TOO_SLOW = 4408;
    private static final long HELLO_DEADLINE_MS = 10_000;

    /** One connection's state: which session it proved access to, and what it is subscribed with. */
    private static final class Connection {
        final Outbox outbox;
        final SocketRelay.Upgrade upgrade;
        /** Set once the session's node answers this socket: every frame goes there from then on. */
        volatile RelayedSocket relay;
        volatile Session session;
        volatile Consumer<SessionEvent> listener;
        /** The hello's token, to bring the session back if it was suspended while this socket stayed open. */
        volatile String token;
        /** The newest event sent, where a brought-back session's stream picks up. */
        volatile long lastSeq;

        Connection(Outbox outbox, SocketRelay.Upgrade upgrade) {
            this.outbox = outbox;
            this.upgrade = upgrade;
        }
    }

    private final SessionManager sessions;
    private final Settings settings;
    private final ServerMetrics metrics;
    private final Assistant assistant;
    private final SocketRelay relays;
    private final Clients clients;
    private final Map<WsContext, Connection> connections = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ws-hello-deadline");
        t.setDaemon(true);
        return t;
    });

    SessionSocket(SessionManager sessions, Settings settings, ServerMetrics metrics, Assistant assistant, SocketRelay relays,
                  Clients clients) {
        this.relays = relays;
        this.clients = clients;
        this.metrics = metrics;
        this.assistant = assistant;
        this.sessions = sessions;
        this.settings = settings;
    }

    void configure(WsConfig ws) {
        ws.onConnect(this::onConnect);
        ws.onMessage(this::onMessage);
        ws.onClose(this::onClose);
        ws.onError(ctx -> detach(ctx, 1001, "gone"));
    }

    private void onConnect(WsConnectContext ctx) {
        ctx.session.setIdleTimeout(java.time.Duration.ofMinutes(10));
        Connection connection = new Connection(new Outbox(ctx.session, CLOSE_TOO_SLOW), new SocketRelay.Upgrade(
                ctx.session.getUpgradeRequest().getRequestURI().getRawPath(), ctx.header("Host"), ctx.header("Origin"),
                ctx.header(SessionForwarding.FORWARDED) != null));
        connections.put(ctx, connection);
        metrics.webSocketOpened();
        ctx.enableAutomaticPings(20, TimeUnit.SECONDS);
        timers.schedule(() -> {
            if (connection.session == null && connection.relay == null && ctx.session.isOpen()) {
                ctx.closeSession(CLOSE_NO_HELLO, "no hello");
            }
        }, HELLO_DEADLINE_MS, TimeUnit.MILLISECONDS);
    }

    private void onMessage(WsMessageContext ctx) {
        Connection connection = connections.get(ctx);
        if (connection == null) {
            return;
        }
        ClientMessage message;
        try {
            if (ctx.message().getBytes(StandardCharsets.UTF_8).length > settings.maxCodeBytes() * 2 + 4096) {
                throw new JsonException("frame too large");
            }
            if (connection.relay != null) {
                connection.relay.send(ctx.message()); // the session's node reads it
                return;
            }
            message = WireCodec.decodeClientMessage(ctx.message());
        } catch (JsonException e) {
            connection.outbox.send(WireCodec.encode(new ServerMessage.ProtocolError(e.getMessage())));
            return;
        }
        if (connection.session == null) {
            if (!(message instanceof ClientMessage.Hello hello)) {
                ctx.closeSession(CLOSE_NO_HELLO, "the first frame must be hello");
                return;
            }
            hello(ctx, connection, hello);
            return;
        }
        try {
            if (!current(ctx, connection)) {
                return; // the session moved: its node has the frame now
            }
            switch (message.type()) {
                case HELLO:
                    connection.outbox.send(WireCodec.encode(new ServerMessage.ProtocolError("already said hello")));
                    break;
                case EXECUTE: {
                    ClientMessage.Execute execute = (ClientMessage.Execute) message;
                    // a person is on the other end: the cell's input() asks them
                    connection.session.submit(sessions.cellLimits().cell(execute.code()).language(execute.language())
                            .packages(execute.packages()).timeoutSeconds(execute.timeoutSeconds()).input(CellInput.ASK).build());
                    break;
                }
                case INTERRUPT:
                    connection.session.interrupt();
                    break;
                case RESTART:
                    connection.session.restart();
                    break;
                case PROMPT:
                    assistant.ask(connection.session, ((ClientMessage.Prompt) message).text());
                    break;
                case STOP:
                    assistant.stop(connection.session);
                    break;
                case INPUT_REPLY:
                    connection.session.reply(sessions.cellLimits().reply(((ClientMessage.InputReply) message).value()));
                    break;
                default:
                    break;
            }
        } catch (SessionNotFoundException e) {
            ctx.closeSession(CLOSE_NOT_FOUND, "no such session"); // closed while this socket stayed open
        } catch (LimitExceededException e) {
            metrics.rejected(e.limit().wire());
            connection.outbox.send(WireCodec.encode(new ServerMessage.ProtocolError(e.getMessage(), e.limit())));
        } catch (IllegalArgumentException | IllegalStateException | SessionClosedException | HistoryUnavailableException e) {
            connection.outbox.send(WireCodec.encode(new ServerMessage.ProtocolError(e.getMessage())));
        }
    }

    private void hello(WsMessageContext ctx, Connection connection, ClientMessage.Hello hello) {
        Session session;
        try {
            session = sessions.open(ctx.pathParam("id"), clients.sessionKey(hello.token())); // its token, or its owning key
        } catch (SessionNotFoundException e) {
            ctx.closeSession(CLOSE_NOT_FOUND, "no such session");
            return;
        } catch (SessionLostException e) {
            lost(ctx, connection, e);
            return;
        } catch (SessionElsewhereException e) {
            relay(ctx, connection, hello.token(), List.of(ctx.message()), false, e);
            return;
        }
        connection.session = session;
        connection.token = hello.token();
        Consumer<SessionEvent> listener = e -> {
            connection.lastSeq = Math.max(connection.lastSeq, e.seq());
            connection.outbox.send(WireCodec.encode(new ServerMessage.EventFrame(e)));
        };
        connection.listener = listener;
        connection.lastSeq = hello.lastSeq();
        // welcome first, so the client knows the runtime before the replayed events arrive
        connection.outbox.send(WireCodec.encode(new ServerMessage.Welcome(session.id(), session.runtime(), session.lastSeq())));
        session.subscribe(hello.lastSeq(), listener);
    }

    /**
     * The session this socket speaks for, brought back first if it was suspended (idle) while the
     * socket stayed open: the socket's stream goes on from the last event it sent, and the resumed
     * event is the next one. False when it moved to another node (or is gone): the socket is relayed
     * there, resuming from the last event it sent, with the frame in hand as the first one after
     * hello; or closed, as a hello would have been.
     */
    private boolean current(WsMessageContext ctx, Connection connection) {
        Session held = connection.session;
        if (!held.closed()) {
            return true;
        }
        held.unsubscribe(connection.listener);
        Session back;
        try {
            back = sessions.open(ctx.pathParam("id"), clients.sessionKey(connection.token));
        } catch (SessionLostException e) {
            lost(ctx, connection, e);
            return false;
        } catch (SessionElsewhereException e) {
            String hello = WireCodec.encode(new ClientMessage.Hello(connection.token, connection.lastSeq));
            relay(ctx, connection, connection.token, List.of(hello, ctx.message()), true, e);
            return false;
        }
        connection.session = back;
        back.subscribe(connection.lastSeq, connection.listener);
        return true;
    }

    /** Relays the socket to the session's node; when there is none to reach, says so and closes (connect again). */
    private void relay(WsMessageContext ctx, Connection connection, String token, List<String> first, boolean resumed,
                       SessionElsewhereException e) {
        connection.relay = relays.open(ctx.pathParam("id"), token, connection.upgrade, ctx.session, connection.outbox, first, resumed,
                e.getMessage()).orElse(null);
        if (connection.relay == null) {
            connection.outbox.send(WireCodec.encode(new ServerMessage.ProtocolError(e.getMessage())));
            ctx.closeSession(CLOSE_ELSEWHERE, "session on another node");
        }
    }

    private void lost(WsContext ctx, Connection connection, SessionLostException e) {
        connection.outbox.send(WireCodec.encode(new ServerMessage.ProtocolError(e.getMessage())));
        ctx.closeSession(CLOSE_LOST, "session lost with its node");
    }

    private void onClose(WsCloseContext ctx) {
        detach(ctx, ctx.status(), ctx.reason());
    }

    private void detach(WsContext ctx, int code, String reason) {
        Connection connection = connections.remove(ctx);
        if (connection != null) {
            metrics.webSocketClosed();
        }
        if (connection != null && connection.relay != null) {
            connection.relay.clientClosed(code, reason);
        }
        if (connection != null && connection.session != null && connection.listener != null) {
            connection.session.unsubscribe(connection.listener);
        }
    }

    void close() {
        timers.shutdownNow();
    }
}
