package dev.codeinterp.server.cluster;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.session.Tokens;
import dev.codeinterp.server.store.Database;
import dev.codeinterp.server.store.EventRepository;
import dev.codeinterp.server.store.NewEvent;
import dev.codeinterp.server.store.NodeRepository;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoredNode;
import dev.codeinterp.server.store.StoredSession;
import dev.codeinterp.server.store.TestStores;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One real server as node {@code n7} of a store it shares with a node {@code n9} that is not running:
 * the rows of n9 are written into the store as n9 would have. What n7 answers for n9's sessions,
 * and what it does once n9 has been silent past the loss timeout.
 */
class SessionsOfOtherNodesTest {
    private static TestApp app;
    private static Database store;

    @BeforeAll
    static void start() {
        app = TestApp.start("runc", Map.of("NODE_ID", "n7", "NODE_LOSS_AFTER", "2s"));
        store = Database.open(TestStores.forDataDir(app.dataDir), app.dataDir.resolve("codeinterp.db"));
    }

    @AfterAll
    static void stop() {
        store.close();
        app.close();
    }

    @Test
    void every_answer_names_the_node_that_gave_it_and_healthz_shows_it_among_the_cluster() {
        TestApp.Response health = app.get("/healthz", null);
        assertThat(health.headers().get("x-codeinterp-node")).containsExactly("n7");
        JsonObject cluster = health.json().object("cluster");
        assertThat(cluster.string("node")).isEqualTo("n7");
        assertThat(cluster.string("state")).isEqualTo("active");
        assertThat(cluster.objectList("nodes")).anySatisfy(n -> {
            assertThat(n.string("id")).isEqualTo("n7");
            assertThat(n.string("state")).isEqualTo("active");
        });
        TestApp.Response room = app.get("/healthz/room", null);
        assertThat(room.status()).isEqualTo(200);
        assertThat(room.json().optBoolean("room", false)).isTrue();
        assertThat(room.headers().get("x-codeinterp-node")).containsExactly("n7");
        assertThat(app.get("/no/such/page", null).headers().get("x-codeinterp-node")).containsExactly("n7");
        assertThat(app.get("/", null).headers().get("x-codeinterp-node")).containsExactly("n7");
    }

    @Test
    void a_new_sessions_id_names_its_node_and_a_forged_hint_finds_nothing() {
        TestApp.SessionRef s = app.createSession();
        assertThat(s.id()).startsWith("n7.");
        String forged = "n9." + s.id().substring(3);
        assertThat(app.post("/api/v1/sessions/" + forged + "/execute", "{\"code\":\"1\"}", s.token()).status()).isEqualTo(404);
        assertThat(app.get("/api/v1/sessions/" + forged + "/events", s.token()).status()).isEqualTo(404);
        assertThat(app.execute(s, "1+1", null).objectList("results").get(0).string("text/plain")).isEqualTo("2");
    }

    @Test
    @Timeout(60)
    void a_lost_nodes_sessions_answer_410_their_cells_end_once_and_their_history_stays_readable() throws Exception {
        long longAgo = System.currentTimeMillis() - 60_000;
        String id = "n9.lostSession000000000";
        String token = Tokens.newToken();
        new NodeRepository(store).register(new StoredNode("n9-lost", "http://127.0.0.1:1", "runsc", 100, 1, StoredNode.ACTIVE,
                longAgo, System.currentTimeMillis()), "key-of-n9");
        new SessionRepository(store).insert(new StoredSession(id, Tokens.hash(token), "runsc", false, longAgo, null, "ws-n9",
                "anonymous", "n9-lost"));
        EventRepository events = new EventRepository(store);
        events.record(id, List.of(new NewEvent("cell-1", longAgo, new Event.Queued("import time; time.sleep(600)", Language.PYTHON)),
                new NewEvent("cell-1", longAgo, new Event.Started(1))));

        // while n9 is alive (its heartbeat fresh), its session is not run here: sent on to n9, which does not answer
        TestApp.Response elsewhere = app.post("/api/v1/sessions/" + id + "/execute", "{\"code\":\"1\"}", token);
        assertThat(elsewhere.status()).isEqualTo(503);
        assertThat(elsewhere.json().string("error")).contains("node cannot be reached");
        assertThat(elsewhere.headers().get("retry-after")).containsExactly("1");
        assertThat(app.post("/api/v1/sessions/" + id + "/execute", "{\"code\":\"1\"}", "wrong-token").status()).isEqualTo(404);

        // then n9 goes silent: n7 marks it lost within the loss timeout and a heartbeat
        long deadline = System.nanoTime() + 20_000_000_000L;
        TestApp.Response lost;
        do {
            Thread.sleep(200);
            lost = app.post("/api/v1/sessions/" + id + "/execute", "{\"code\":\"1\"}", token);
        } while (lost.status() != 410 && System.nanoTime() < deadline);
        assertThat(lost.status()).isEqualTo(410);
        assertThat(lost.json().string("error")).contains("n9-lost").contains("was lost").contains("start a new session");

        JsonObject history = app.get("/api/v1/sessions/" + id + "/events", token).json();
        TestApp.assertOneFinishedPerCell(history);
        List<String> types = history.objectList("events").stream().map(e -> e.string("type")).toList();
        assertThat(types).containsExactly("queued", "started", "restarted", "finished");
        assertThat(history.objectList("events").get(3).string("status")).isEqualTo("interrupted");
        assertThat(new NodeRepository(store).find("n9-lost").orElseThrow().state()).isEqualTo(StoredNode.LOST);
        assertThat(app.get("/healthz", null).json().object("cluster").objectList("nodes"))
                .anySatisfy(n -> assertThat(n.string("state")).isEqualTo("lost"));

        TestApp.Response notebook = app.get("/api/v1/sessions/" + id + "/notebook.ipynb", token);
        assertThat(notebook.status()).isEqualTo(200);
        assertThat(notebook.body()).contains("time.sleep(600)");
        try (WsClient ws = WsClient.connect(app.wsUri(id), null)) {
            ws.send(new ClientMessage.Hello(token, 0));
            assertThat(ws.next(5000)).isInstanceOfSatisfying(ServerMessage.ProtocolError.class,
                    e -> assertThat(e.message()).contains("was lost"));
            assertThat(ws.closedWith().get(5, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(4410);
        }
        assertThat(app.delete("/api/v1/sessions/" + id, token).status()).isEqualTo(204);
        assertThat(app.get("/api/v1/sessions/" + id + "/events", token).status()).isEqualTo(404);
    }
}
