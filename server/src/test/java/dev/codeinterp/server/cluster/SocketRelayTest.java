package dev.codeinterp.server.cluster;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.server.session.Tokens;
import dev.codeinterp.server.store.Database;
import dev.codeinterp.server.store.NodeRepository;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoredNode;
import dev.codeinterp.server.store.StoredSession;
import dev.codeinterp.server.store.TestStores;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two real servers, nodes n1 and n2, on one PostgreSQL store: a session's WebSocket that is open
 * on the node that does not run the session (it landed there, or the session moved) is relayed to
 * the node that does, frames unchanged both ways; what the owner would refuse is refused through
 * the relay too. n2 lets pages of {@link #APP} drive it, n1 does not.
 */
class SocketRelayTest {
    private static final String APP = "http://app.example";
    private static TwoNodes nodes;
    private static TestApp n1;
    private static TestApp n2;
    private static Database store;

    @BeforeAll
    static void startTwoNodes() throws Exception {
        assumeTrue(TestStores.postgres(), "a cluster's nodes share a PostgreSQL store");
        nodes = new TwoNodes(Files.createTempDirectory("socket-relay"), "runc", Map.of(), Map.of("ALLOWED_ORIGINS", APP));
        n1 = nodes.n1;
        n2 = nodes.n2;
        store = Database.open(TestStores.forDataDir(n1.dataDir), n1.dataDir.resolve("codeinterp.db"));
    }

    @AfterAll
    static void stop() {
        if (store != null) {
            store.close();
        }
        if (nodes != null) {
            nodes.close();
        }
    }

    /** n2's own page: its Origin is n2's Host, so it passes n1's check only if the relay keeps the Host. */
    private static WsClient fromN2sPage(String sessionId) {
        return WsClient.connect(n2.wsUri(sessionId), "http://127.0.0.1:" + n2.main.port());
    }

    private static SessionEvent nextEvent(WsClient ws) throws InterruptedException {
        while (true) {
            ServerMessage m = ws.next(60_000);
            if (m instanceof ServerMessage.EventFrame f) {
                return f.event();
            }
            assertThat(m).as("only events after the welcome").isNotInstanceOf(ServerMessage.Welcome.class);
        }
    }

    /** Events up to and including the next finished one. */
    private static List<SessionEvent> untilFinished(WsClient ws) throws InterruptedException {
        List<SessionEvent> seen = new ArrayList<>();
        do {
            seen.add(nextEvent(ws));
        } while (!(seen.get(seen.size() - 1).event() instanceof Event.Finished));
        return seen;
    }

    private static String printed(List<SessionEvent> events) {
        StringBuilder out = new StringBuilder();
        events.stream().filter(e -> e.event() instanceof Event.Stream).forEach(e -> out.append(((Event.Stream) e.event()).text()));
        return out.toString();
    }

    private static void assertConsecutive(List<SessionEvent> events) {
        for (int i = 1; i < events.size(); i++) {
            assertThat(events.get(i).seq()).as("event %d", i).isEqualTo(events.get(i - 1).seq() + 1);
        }
    }

    @Test
    @Timeout(120)
    void a_socket_that_lands_on_another_node_streams_the_session_live() throws Exception {
        TestApp.SessionRef s = n1.createSession();
        n1.execute(s, "x = 41", null);
        try (WsClient ws = fromN2sPage(s.id())) {
            ws.send(new ClientMessage.Hello(s.token(), 0));
            assertThat(ws.next(10_000)).isInstanceOfSatisfying(ServerMessage.Welcome.class, w -> {
                assertThat(w.sessionId()).isEqualTo(s.id());
                assertThat(w.runtime()).isEqualTo("runc");
            });
            List<SessionEvent> before = untilFinished(ws); // the cell run over REST on n1, replayed
            ws.send(new ClientMessage.Execute("import time\nfor i in range(5):\n    print('line', i + x - 41, flush=True)\n"
                    + "    time.sleep(0.3)\nx + 1", null));
            long firstLineAt = 0;
            List<SessionEvent> cell = new ArrayList<>();
            do {
                cell.add(nextEvent(ws));
                if (firstLineAt == 0 && cell.get(cell.size() - 1).event() instanceof Event.Stream) {
                    firstLineAt = System.nanoTime();
                }
            } while (!(cell.get(cell.size() - 1).event() instanceof Event.Finished));
            long finishedAt = System.nanoTime();

            assertThat(((Event.Finished) cell.get(cell.size() - 1).event()).status()).isEqualTo(Status.OK);
            assertThat(printed(cell)).isEqualTo("line 0\nline 1\nline 2\nline 3\nline 4\n");
            assertThat(cell).anySatisfy(e -> assertThat(e.event()).isInstanceOfSatisfying(Event.ExecuteResult.class,
                    r -> assertThat(r.data().get("text/plain")).isEqualTo("42")));
            assertThat(TimeUnit.NANOSECONDS.toMillis(finishedAt - firstLineAt)).as("the first line came while the cell ran")
                    .isGreaterThan(800);
            List<SessionEvent> all = new ArrayList<>(before);
            all.addAll(cell);
            assertConsecutive(all);
            assertThat(all.get(0).seq()).isEqualTo(1);
        }
    }

    @Test
    @Timeout(120)
    void a_relayed_socket_resumes_from_its_last_seq() throws Exception {
        TestApp.SessionRef s = n1.createSession();
        n1.execute(s, "print('one')", null);
        long afterFirst = n1.get("/api/v1/sessions/" + s.id() + "/events", s.token()).json().integer("last_seq");
        n1.execute(s, "print('two')", null);
        long afterSecond = n1.get("/api/v1/sessions/" + s.id() + "/events", s.token()).json().integer("last_seq");
        try (WsClient ws = fromN2sPage(s.id())) {
            ws.send(new ClientMessage.Hello(s.token(), afterFirst));
            ws.send(new ClientMessage.Execute("print('three')", null)); // before the relay is up: kept, after the hello
            assertThat(ws.next(10_000)).isInstanceOfSatisfying(ServerMessage.Welcome.class,
                    w -> assertThat(w.lastSeq()).isEqualTo(afterSecond));
            List<SessionEvent> missed = untilFinished(ws);
            assertThat(missed.get(0).seq()).isEqualTo(afterFirst + 1);
            assertThat(missed.get(missed.size() - 1).seq()).isEqualTo(afterSecond);
            assertThat(printed(missed)).isEqualTo("two\n");
            List<SessionEvent> all = new ArrayList<>(missed);
            all.addAll(untilFinished(ws));
            assertThat(printed(all)).isEqualTo("two\nthree\n");
            assertConsecutive(all);
        }
    }

    @Test
    void a_wrong_token_on_another_node_is_not_relayed() throws Exception {
        TestApp.SessionRef s = n1.createSession();
        for (TestApp node : List.of(n2, n1)) {
            try (WsClient ws = WsClient.connect(node.wsUri(s.id()), null)) {
                ws.send(new ClientMessage.Hello("a-wrong-token", 0));
                assertThat(ws.closedWith().get(10, TimeUnit.SECONDS)).as("on " + node.settings.node().id()).isEqualTo(4404);
                assertThatThrownBy(() -> ws.next(300)).as("nothing said before the close").isInstanceOf(AssertionError.class);
            }
        }
    }

    @Test
    void a_socket_already_relayed_once_is_answered_where_it_lands() throws Exception {
        TestApp.SessionRef s = n1.createSession();
        try (WsClient ws = WsClient.connectWith(n2.wsUri(s.id()), Map.of("X-CodeInterp-Forwarded-By", "n9"))) {
            ws.send(new ClientMessage.Hello(s.token(), 0));
            assertThat(ws.next(10_000)).isInstanceOfSatisfying(ServerMessage.ProtocolError.class,
                    e -> assertThat(e.message()).contains("runs on node n1"));
            assertThat(ws.closedWith().get(10, TimeUnit.SECONDS)).isEqualTo(4503);
        }
    }

    @Test
    void a_socket_whose_node_is_out_of_reach_is_told_so_and_closed_with_4503() throws Exception {
        long now = System.currentTimeMillis();
        String id = "n9.awaySession0000000000";
        String token = Tokens.newToken();
        // a node that is alive to the store (its heartbeat is fresh) and answers nobody
        new NodeRepository(store).register(new StoredNode("n9", "http://127.0.0.1:1", "runc", 10, 1, StoredNode.ACTIVE, now, now),
                "key-of-n9");
        new SessionRepository(store).insert(new StoredSession(id, Tokens.hash(token), "runc", false, now, null, "ws-n9", "anonymous",
                "n9"));
        try (WsClient ws = WsClient.connect(n2.wsUri(id), null)) {
            ws.send(new ClientMessage.Hello(token, 0));
            assertThat(ws.next(10_000)).isInstanceOfSatisfying(ServerMessage.ProtocolError.class,
                    e -> assertThat(e.message()).contains("runs on node n9").contains("cannot be reached"));
            assertThat(ws.closedWith().get(10, TimeUnit.SECONDS)).isEqualTo(4503);
        }
    }

    @Test
    @Timeout(120)
    void the_owner_closing_the_socket_closes_the_relayed_one_with_its_code() throws Exception {
        TestApp.SessionRef s = n1.createSession();
        try (WsClient ws = fromN2sPage(s.id())) {
            ws.send(new ClientMessage.Hello(s.token(), 0));
            assertThat(ws.next(10_000)).isInstanceOf(ServerMessage.Welcome.class);
            assertThat(n1.delete("/api/v1/sessions/" + s.id(), s.token()).status()).isEqualTo(204);
            ws.send(new ClientMessage.Execute("1", null)); // n1 finds its session closed: 4404, as to a client of its own
            assertThat(ws.closedWith().get(10, TimeUnit.SECONDS)).isEqualTo(4404);
        }
    }

    @Test
    void an_origin_the_owner_refuses_is_refused_through_the_relay_as_well() throws Exception {
        TestApp.SessionRef s = n1.createSession();
        // a foreign page: refused at the handshake by the node it reaches, as by the owner
        for (TestApp node : List.of(n1, n2)) {
            assertThat(handshakeStatus(node.wsUri(s.id()), "http://evil.example")).as("on " + node.settings.node().id()).isEqualTo(403);
        }
        // a page n2 lets drive it and n1 does not: n1 refuses it, straight or through n2
        assertThat(handshakeStatus(n1.wsUri(s.id()), APP)).isEqualTo(403);
        try (WsClient ws = WsClient.connect(n2.wsUri(s.id()), APP)) {
            ws.send(new ClientMessage.Hello(s.token(), 0));
            assertThat(ws.next(10_000)).isInstanceOfSatisfying(ServerMessage.ProtocolError.class,
                    e -> assertThat(e.message()).contains("refused"));
            assertThat(ws.closedWith().get(10, TimeUnit.SECONDS)).isEqualTo(4403);
        }
    }

    /** The HTTP status of a refused WebSocket handshake (fails when the handshake succeeds). */
    private static int handshakeStatus(String uri, String origin) {
        try {
            WsClient.connect(uri, origin).close();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof java.net.http.WebSocketHandshakeException refused) {
                return refused.getResponse().statusCode();
            }
            throw e;
        }
        throw new AssertionError("the handshake with " + uri + " from " + origin + " succeeded");
    }

    @Test
    @Timeout(180)
    void a_socket_whose_session_moves_goes_on_with_the_sessions_new_node_from_where_it_was() throws Exception {
        // (n2 is drained here: it relays, it runs nothing of its own after)
        TestApp.SessionRef s = n2.createSession();
        try (WsClient ws = WsClient.connect(n2.wsUri(s.id()), null)) {
            ws.send(new ClientMessage.Hello(s.token(), 0));
            assertThat(ws.next(10_000)).isInstanceOf(ServerMessage.Welcome.class);
            ws.send(new ClientMessage.Execute("print('before')", null));
            List<SessionEvent> seen = new ArrayList<>(untilFinished(ws));
            assertThat(printed(seen)).isEqualTo("before\n");

            // n2 is drained: the session moves to n1 while this socket stays open on n2
            assertThat(n2.main.drain(java.time.Duration.ofMinutes(2)).moved()).isEqualTo(1);

            ws.send(new ClientMessage.Execute("print('after')", null));
            ws.send(new ClientMessage.Execute("print('and after')", null)); // sent while the relay connects: kept, in order
            seen.addAll(untilFinished(ws));
            seen.addAll(untilFinished(ws));
            assertConsecutive(seen);
            assertThat(printed(seen)).isEqualTo("before\nafter\nand after\n");
        }
        assertThat(n1.get("/api/v1/sessions/" + s.id(), s.token()).headers().get("x-codeinterp-node")).containsExactly("n1");
    }
}
