package dev.codeinterp.server.api;

import dev.codeinterp.server.cluster.NodeRegistry;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.client.ClientUpgradeRequest;
import org.eclipse.jetty.websocket.client.JettyUpgradeListener;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A session's WebSocket that is open on a node other than the session's (it landed here, or the
 * session moved while it was open) is relayed to the node that runs it: the WebSocket counterpart of
 * {@link SessionForwarding}, with the same rules. The owner is looked up in the store, only with the
 * session's token; the relayed upgrade carries {@link SessionForwarding#FORWARDED} (the owner answers
 * it itself: one hop) and the client's Host and Origin, so the owner's browser-access rules see what
 * they would have seen had the client come straight to it. One WebSocket client for the process.
 */
final class SocketRelay {
    private static final Logger log = LoggerFactory.getLogger(SocketRelay.class);

    /** What the client's upgrade said that the owner must see too. */
    record Upgrade(String path, String host, String origin, boolean forwarded) {
    }

    private final NodeRegistry node;
    private final Clients keys;
    private final WebSocketClient client = new WebSocketClient();

    SocketRelay(NodeRegistry node, Clients keys) {
        this.node = node;
        this.keys = keys;
        client.setConnectTimeout(5_000);
        client.setIdleTimeout(Duration.ofMinutes(10)); // as a client's socket here; the owner pings it every 20 s
        // the largest frame an owner may send a client: one an Outbox could hold at all
        client.setMaxTextMessageSize(Outbox.MAX_PENDING_CHARS);
        client.setMaxBinaryMessageSize(1024);
        client.setStopAtShutdown(false); // stopped by close(), with the web server
        try {
            client.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the WebSocket client that relays to other nodes", e);
        }
    }

    /**
     * Relays the socket of session {@code sessionId} to its node: {@code first} are the frames the
     * owner gets before any the client sends from now on (its hello, and the frame that found the
     * session gone); {@code resumed}: the client had its welcome here, the owner's is dropped. Empty
     * when there is nothing to relay to: the upgrade was relayed already, or the store names no
     * reachable node for this session and token; the caller answers then as without a relay.
     * {@code elsewhere} is what the client hears if the owner turns out unreachable.
     */
    Optional<RelayedSocket> open(String sessionId, String token, Upgrade upgrade, Session clientSocket, Outbox toClient,
                                 List<String> first, boolean resumed, String elsewhere) {
        if (upgrade.forwarded()) {
            return Optional.empty(); // one hop: a relayed socket is answered where it lands
        }
        Optional<String> owner = node.ownerUrl(sessionId, keys.sessionKey(token));
        if (owner.isEmpty()) {
            return Optional.empty();
        }
        URI uri = URI.create(owner.get().replaceFirst("^http", "ws") + upgrade.path()); // http→ws, https→wss
        RelayedSocket relay = new RelayedSocket(clientSocket, toClient, first, resumed, elsewhere);
        ClientUpgradeRequest request = new ClientUpgradeRequest(uri);
        JettyUpgradeListener headers = new JettyUpgradeListener() {
            @Override
            public void onHandshakeRequest(Request handshake) {
                handshake.headers(h -> {
                    if (upgrade.host() != null) {
                        h.put("Host", upgrade.host());
                    }
                    if (upgrade.origin() != null) {
                        h.put("Origin", upgrade.origin());
                    }
                    h.put(SessionForwarding.FORWARDED, node.id());
                });
            }

            @Override
            public void onHandshakeResponse(Request handshake, Response response) {
                relay.answered(response.getStatus());
            }
        };
        log.info("socket of session {} relayed to its node at {}", sessionId, owner.get());
        try {
            client.connect(relay, request, headers).whenComplete((session, failure) -> {
                if (failure != null) {
                    log.warn("relaying the socket of session {} to {} failed: {}", sessionId, owner.get(), failure.toString());
                    relay.failed();
                }
            });
        } catch (IOException | RuntimeException e) {
            log.warn("relaying the socket of session {} to {} failed: {}", sessionId, owner.get(), e.toString());
            relay.failed();
        }
        return Optional.of(relay);
    }

    void close() {
        try {
            client.stop();
        } catch (Exception e) {
            log.debug("stopping the relay's WebSocket client", e);
        }
    }
}
