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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A session's WebSocket: the first frame must be {@code hello} with the token; then the client
 * gets the events it missed and the live ones, and may execute, interrupt and restart.
 */
final class SessionSocket {
    private static final Logger log = LoggerFactory.getLogger(SessionSocket.class);
    static final int CLOSE_NOT_FOUND = 4404;
    /** The session's node was lost: its history stays (REST), it cannot run again. */
    static final int CLOSE_LOST = 4410;
    /** The session runs on another node this one cannot reach for it now: connect again (through the front door). */
    static final int CLOSE_ELSEWHERE = 4503;
    static final int CLOSE_NO_HELLO = 4401;
    static final int CLOSE_TOO_SLOW = 4408;
    private static final long HELLO_DEADLINE_MS = 10_000;

    /** One connection's state: which session it proved access to, and what it is subscribed with. */
    private static final class Connection {
        final Outbox outbox;
        volatile Session session;
        volatile Consumer<SessionEvent> listener;
        /** The hello's token, to bring the session back if it was suspended while this socket stayed open. */
        volatile String token;
        /** The newest event sent, where a brought-back session's stream picks up. */
        volatile long lastSeq;

        Connection(Outbox outbox) {
            this.outbox = outbox;
        }
    }

    private final SessionManager sessions;
    private final Settings settings;
    private final ServerMetrics metrics;
    private final Assistant assistant;
    private final Map<WsContext, Connection> connections = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ws-hello-deadline");
        t.setDaemon(true);
        return t;
    });

    SessionSocket(SessionManager sessions, Settings settings, ServerMetrics metrics, Assistant assistant) {
        this.metrics = metrics;
        this.assistant = assistant;
        this.sessions = sessions;
        this.settings = settings;
    }

    void configure(WsConfig ws) {
        ws.onConnect(this::onConnect);
        ws.onMessage(this::onMessage);
        ws.onClose(this::onClose);
        ws.onError(ctx -> detach(ctx));
    }

    private void onConnect(WsConnectContext ctx) {
        ctx.session.setIdleTimeout(java.time.Duration.ofMinutes(10));
        Connection connection = new Connection(new Outbox(ctx.session, CLOSE_TOO_SLOW));
        connections.put(ctx, connection);
        metrics.webSocketOpened();
        ctx.enableAutomaticPings(20, TimeUnit.SECONDS);
        timers.schedule(() -> {
            if (connection.session == null && ctx.session.isOpen()) {
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
            current(ctx, connection);
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
            session = sessions.open(ctx.pathParam("id"), hello.token());
        } catch (SessionNotFoundException e) {
            ctx.closeSession(CLOSE_NOT_FOUND, "no such session");
            return;
        } catch (SessionLostException | SessionElsewhereException e) {
            connection.outbox.send(WireCodec.encode(new ServerMessage.ProtocolError(e.getMessage())));
            ctx.closeSession(e instanceof SessionLostException ? CLOSE_LOST : CLOSE_ELSEWHERE,
                    e instanceof SessionLostException ? "session lost with its node" : "session on another node");
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
     * event is the next one.
     */
    private void current(WsContext ctx, Connection connection) {
        Session held = connection.session;
        if (!held.closed()) {
            return;
        }
        held.unsubscribe(connection.listener);
        Session back = sessions.open(ctx.pathParam("id"), connection.token);
        connection.session = back;
        back.subscribe(connection.lastSeq, connection.listener);
    }

    private void onClose(WsCloseContext ctx) {
        detach(ctx);
    }

    private void detach(WsContext ctx) {
        Connection connection = connections.remove(ctx);
        if (connection != null) {
            metrics.webSocketClosed();
        }
        if (connection != null && connection.session != null && connection.listener != null) {
            connection.session.unsubscribe(connection.listener);
        }
    }

    void close() {
        timers.shutdownNow();
    }
}
