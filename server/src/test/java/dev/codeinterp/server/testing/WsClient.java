package dev.codeinterp.server.testing;

import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.model.wire.WireCodec;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A test client of a session's WebSocket that speaks through the shared codec. */
public final class WsClient implements AutoCloseable {
    private final BlockingQueue<ServerMessage> received = new LinkedBlockingQueue<>();
    private final CompletableFuture<Integer> closedWith = new CompletableFuture<>();
    private final WebSocket ws;

    private WsClient(String uri, Map<String, String> headers) {
        WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
        headers.forEach(b::header);
        this.ws = b.buildAsync(URI.create(uri), new WebSocket.Listener() {
            private final StringBuilder partial = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                partial.append(data);
                if (last) {
                    received.add(WireCodec.decodeServerMessage(partial.toString()));
                    partial.setLength(0);
                }
                webSocket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                closedWith.complete(statusCode);
                return null;
            }

            @Override
            public void onError(WebSocket webSocket, Throwable error) {
                closedWith.completeExceptionally(error);
            }
        }).join();
    }

    public static WsClient connect(String uri, String origin) {
        return new WsClient(uri, origin == null ? Map.of() : Map.of("Origin", origin));
    }

    /** With these headers on the handshake. */
    public static WsClient connectWith(String uri, Map<String, String> headers) {
        return new WsClient(uri, headers);
    }

    /** The close code the server ended the connection with (completes exceptionally on a transport error). */
    public CompletableFuture<Integer> closedWith() {
        return closedWith;
    }

    public void send(ClientMessage message) {
        ws.sendText(WireCodec.encode(message), true).join();
    }

    /** Sends a frame as is, for hostile input. */
    public void sendRaw(String text) {
        ws.sendText(text, true).join();
    }

    public ServerMessage next(long timeoutMs) throws InterruptedException {
        ServerMessage m = received.poll(timeoutMs, TimeUnit.MILLISECONDS);
        if (m == null) {
            throw new AssertionError("no frame within " + timeoutMs + " ms");
        }
        return m;
    }

    /** Drops the TCP connection without a close handshake, as a network failure would. */
    public void drop() {
        ws.abort();
    }

    @Override
    public void close() {
        if (!ws.isOutputClosed()) {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye");
        }
        ws.abort();
    }
}
