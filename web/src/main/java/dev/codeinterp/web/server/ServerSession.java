package dev.codeinterp.web.server;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.Limit;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.session.Interpreter;
import dev.codeinterp.web.session.WorkspaceFiles;
import org.teavm.jso.browser.Window;
import org.teavm.jso.websocket.WebSocket;

import java.util.ArrayList;
import java.util.List;

/**
 * A server session: its sandbox runs the code, its WebSocket is kept open. On every (re)connect it
 * says hello with the last seq it rendered, so the server replays exactly what was missed; events
 * at or below that seq are dropped. The token lives in localStorage only, never in a URL.
 *
 * <p>The server answers each execute and each prompt on a socket, in the order sent, with the cell's
 * {@code queued} event, the prompt's {@code prompt} event, or a {@code protocol_error} (nothing
 * taken, e.g. the queue is full or the assistant is still answering); so a protocol error goes to
 * the oldest unanswered request of either kind ({@link UnansweredRequests}) and gives it back to the
 * listener. A cell sent on a socket that dropped before its answer is never sent again: the next
 * welcome's replay shows whether the server took it, and if not it is given back.
 *
 * <p>Any other drop reconnects, except a close saying the session will never run again: 4404 (no
 * such session) ends it; 4410 (its node was lost, the reason in the {@code protocol_error} before
 * the close) ends it as lost, once its stored history is read ({@link LostHistory}): the page can go
 * on from it in a new session.
 */
public final class ServerSession implements Interpreter {
    public static final String ROUTE_PREFIX = "/s/";
    private static final String TOKEN_KEY = "codeinterp.token.";
    /** The session a fork was copied from, kept beside its token: the fork says so again after a reload. */
    private static final String FORKED_FROM_KEY = "codeinterp.forked-from.";
    private static final int OPEN = 1;
    /** The server's close codes: the session does not exist; its node was lost (its history stays, it cannot run again). */
    private static final int CLOSE_NOT_FOUND = 4404;
    private static final int CLOSE_LOST = 4410;
    private static final String LOST = "The server node running this session was lost: its history stays, its variables "
            + "and files are gone. Start a new session.";

    private final String sessionId;
    private final String token;
    private final ServerFiles files;
    /** Executes and prompts sent on the current socket and not answered yet, in one line. */
    private final UnansweredRequests unanswered = new UnansweredRequests();
    /** Executes sent on a socket that dropped before the server answered them. */
    private final List<String> unconfirmed = new ArrayList<>();
    /** The server's last seq when it welcomed us: the replay of missed events ends there. */
    private long replayEnd;
    private Listener listener;
    private WebSocket socket;
    private long lastSeq;
    private int attempt;
    private boolean open;
    private boolean gone;
    /** {@link #close}d: the page moved on, nothing more goes to the listener. */
    private boolean closed;
    /** The last {@code protocol_error} on the current socket: before a 4410 close, the reason the session was lost. */
    private String lastError;

    private ServerSession(String sessionId, String token) {
        this.sessionId = sessionId;
        this.token = token;
        this.files = new ServerFiles(sessionId, token);
    }

    /** Reopens a session this browser created earlier; null if it holds no token for it. */
    public static ServerSession reopen(String sessionId) {
        String token = Browser.storageGet(TOKEN_KEY + sessionId);
        return token == null ? null : new ServerSession(sessionId, token);
    }

    /**
     * A session this browser holds no token for, opened with the API key that owns it (the server
     * lists a key's sessions for any browser holding the key); nothing is stored for it.
     */
    public static ServerSession withKey(String sessionId, String apiKey) {
        return new ServerSession(sessionId, apiKey);
    }

    /** The token this browser keeps for the session, or null. */
    public static String tokenOf(String sessionId) {
        return Browser.storageGet(TOKEN_KEY + sessionId);
    }

    /** Forgets the session: its token and where it was forked from (the conversation list's delete). */
    public static void forget(String sessionId) {
        Browser.storageRemove(TOKEN_KEY + sessionId);
        Browser.storageRemove(FORKED_FROM_KEY + sessionId);
    }

    /** A session the server has just created for this browser: its token is kept for reloads. */
    static ServerSession created(String sessionId, String token) {
        Browser.storageSet(TOKEN_KEY + sessionId, token);
        return new ServerSession(sessionId, token);
    }

    /** A fork of {@code sourceId} the server has just created: kept as a created session, with where it came from. */
    static ServerSession forked(String sourceId, String sessionId, String token) {
        Browser.storageSet(FORKED_FROM_KEY + sessionId, sourceId);
        return created(sessionId, token);
    }

    public interface Forked {
        /** The new session (both go on independently), or null and the sentence saying why there is none. */
        void ready(ServerSession fork, String problem);
    }

    /** Asks the server for a copy of this session as it is now: its variables, files and history so far. */
    public void fork(Forked done) {
        ServerFork.request(sessionId, token, done);
    }

    /** The id of the session this one was forked from in this browser, or null. */
    public String forkedFrom() {
        return Browser.storageGet(FORKED_FROM_KEY + sessionId);
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
        lastError = null;
        ws.onOpen(e -> ws.send(WireCodec.encode(new ClientMessage.Hello(token, lastSeq))));
        ws.onMessage(e -> receive(e.getDataAsString()));
        ws.onClose(e -> {
            if (socket == ws) {
                open = false;
                unconfirmed.addAll(unanswered.dropped());
            }
            if (closed) {
                return; // the page moved on: whatever the close says is not for it
            }
            if (e.getCode() == CLOSE_NOT_FOUND) {
                end("session not found", "This session no longer exists on the server; your cell is back in the composer.");
                listener.onEnded("This session no longer exists on the server. Start a new session.");
                return;
            }
            if (e.getCode() == CLOSE_LOST) {
                end("session lost", "The server node running this session was lost before it took your cell; "
                        + "your cell is back in the composer.");
                String reason = lostReason(socket == ws ? lastError : null);
                LostHistory.read(sessionId, token, lastSeq, this::shownFromHistory, () -> {
                    if (!closed) {
                        listener.onLost(reason);
                    }
                });
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
            replayEnd = w.lastSeq();
            settleUnconfirmed();
        } else if (message instanceof ServerMessage.EventFrame f) {
            if (f.event().seq() <= lastSeq) {
                return;
            }
            lastSeq = f.event().seq();
            if (f.event().event() instanceof Event.Queued q) {
                answered(q.code(), f.event().seq());
            } else if (f.event().event() instanceof Event.Prompt prompt && seqIsLive(f.event().seq())) {
                unanswered.accepted(UnansweredRequests.Kind.PROMPT, prompt.text());
            }
            listener.onEvent(f.event());
            settleUnconfirmed();
        } else if (message instanceof ServerMessage.ProtocolError p) {
            lastError = p.message();
            UnansweredRequests.Request refused = unanswered.refused();
            if (refused == null) {
                listener.onProblem(p.message());
            } else {
                listener.onRefused(refused.text(), switch (refused.kind()) {
                    case PROMPT -> "Your question was not sent: " + p.message() + ". It is back in the composer.";
                    case CELL -> p.limit() == Limit.QUEUED_CELLS
                            ? "Your cell was not queued: " + p.message() + ". It is back in the composer."
                            : "Your cell was not run: " + p.message() + ". It is back in the composer.";
                });
            }
        }
    }

    /**
     * A cell was queued. Replayed events (up to the welcome's seq) can only answer cells sent on a
     * socket that dropped; later ones answer the oldest cell sent on this socket.
     */
    private void answered(String code, long seq) {
        if (seq <= replayEnd) {
            unconfirmed.remove(code);
        } else {
            unanswered.accepted(UnansweredRequests.Kind.CELL, code);
        }
    }

    /** Once the replay is through, a cell from a dropped socket that is not in it never reached the server. */
    private void settleUnconfirmed() {
        if (unconfirmed.isEmpty() || !open || lastSeq < replayEnd) {
            return;
        }
        List<String> lost = new ArrayList<>(unconfirmed);
        unconfirmed.clear();
        for (String code : lost) {
            listener.onRefused(code, "The connection dropped before the server took this cell; it is back in the composer.");
        }
    }

    /** The session takes no more cells: cells sent on a socket that dropped before the server took them go back. */
    private void end(String state, String cellBack) {
        gone = true;
        listener.onState(state);
        for (String code : unconfirmed) {
            listener.onRefused(code, cellBack);
        }
        unconfirmed.clear();
    }

    /** An event of a lost session's stored history the page has not shown yet. */
    private void shownFromHistory(SessionEvent event) {
        if (!closed && event.seq() > lastSeq) {
            lastSeq = event.seq();
            listener.onEvent(event);
        }
    }

    /** The server's reason as a sentence (it sends one in lower case, without a full stop), or a plain one if none came. */
    static String lostReason(String serverReason) {
        if (serverReason == null || serverReason.isBlank()) {
            return LOST;
        }
        String reason = serverReason.strip();
        reason = Character.toUpperCase(reason.charAt(0)) + reason.substring(1);
        return reason.endsWith(".") ? reason : reason + ".";
    }

    private void scheduleReconnect() {
        attempt++;
        listener.onState("reconnecting");
        int delay = Math.min(10_000, 250 * (1 << Math.min(attempt, 6)));
        Window.setTimeout(this::connect, delay);
    }

    /** Sends the cell if the session is connected; returns false, saying nothing, if not (the caller holds it). */
    @Override
    public boolean execute(String code, Language language) {
        return execute(code, language, List.of());
    }

    /** As above, with {@code packages} for the server to install first (its allowlist decides; a refusal gives the cell back). */
    @Override
    public boolean execute(String code, Language language, List<String> packages) {
        return execute(code, language, packages, null);
    }

    @Override
    public boolean execute(String code, Language language, List<String> packages, Double timeoutSeconds) {
        if (!connected()) {
            return false;
        }
        socket.send(WireCodec.encode(new ClientMessage.Execute(code, timeoutSeconds, language.wire(), packages)));
        unanswered.sent(UnansweredRequests.Kind.CELL, code);
        return true;
    }

    private boolean seqIsLive(long seq) {
        return seq > replayEnd;
    }

    @Override
    public boolean prompt(String text) {
        if (!connected()) {
            return false;
        }
        socket.send(WireCodec.encode(new ClientMessage.Prompt(text)));
        unanswered.sent(UnansweredRequests.Kind.PROMPT, text);
        return true;
    }

    @Override
    public void stop() {
        send(new ClientMessage.Stop());
    }

    @Override
    public void interrupt() {
        send(new ClientMessage.Interrupt());
    }

    @Override
    public void reply(String value) {
        send(new ClientMessage.InputReply(value));
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

    private void send(ClientMessage message) {
        if (!connected()) {
            listener.onProblem("Not connected yet; try again in a moment.");
            return;
        }
        socket.send(WireCodec.encode(message));
    }

    /** Welcomed, and the socket not closing (a closing socket drops what it is given without a word). */
    private boolean connected() {
        return open && socket.getReadyState() == OPEN;
    }

    /** Closes for good (a new conversation replaces this one); the session lives on on the server. */
    @Override
    public void close() {
        gone = true;
        closed = true;
        if (socket != null) {
            socket.close();
        }
    }

    @Override
    public void notebook(NotebookFile done) {
        ServerNotebook.fetch(sessionId, token, done);
    }
}
