package dev.codeinterp.server.cluster;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.session.Tokens;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two real gVisor nodes on one PostgreSQL store; n1 is drained. Its sessions (running, busy and
 * suspended) move to n2 with their variables and files, a cell running when the drain starts
 * finishes first, a client that keeps working through the drain sees no failed cell, and a hand-over
 * that does not come from a node of the cluster is refused before anything is written.
 */
class DrainTest {
    private static TwoNodes nodes;
    private static TestApp n1;
    private static TestApp n2;

    @BeforeAll
    static void startTwoNodes() throws Exception {
        nodes = TwoNodes.onPostgres("drain", "runsc", Map.of("POOL_SIZE", "0"));
        n1 = nodes.n1;
        n2 = nodes.n2;
    }

    @AfterAll
    static void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    @Test
    @Timeout(300)
    void a_drained_node_hands_every_session_over_with_its_variables_and_files_and_no_cell_fails() throws Exception {
        List<TestApp.SessionRef> sessions = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            TestApp.SessionRef s = n1.createSession();
            n1.execute(s, "x = " + i + "\nopen('f.txt', 'w').write('file " + i + "')", null);
            sessions.add(s);
        }
        for (TestApp.SessionRef s : sessions.subList(0, 2)) {
            assertThat(n1.post("/api/v1/sessions/" + s.id() + "/suspend", "", s.token()).status()).isEqualTo(200);
        }
        TestApp.SessionRef busy = sessions.get(2);
        TestApp.SessionRef working = sessions.get(3);
        n1.execute(working, "n = 0", null);

        // a cell running when the drain starts, and a client that keeps sending cells through it, to n1
        CompletableFuture<TestApp.Response> running = CompletableFuture.supplyAsync(() ->
                n1.post("/api/v1/sessions/" + busy.id() + "/execute", "{\"code\":\"import time\\ntime.sleep(3)\\ny = 7\\ny\"}", busy.token()));
        Thread.sleep(500);
        AtomicBoolean drained = new AtomicBoolean();
        AtomicInteger sent = new AtomicInteger();
        List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        CompletableFuture<Void> client = CompletableFuture.runAsync(() -> {
            while (!drained.get() || sent.get() < 3) {
                TestApp.Response r = n1.post("/api/v1/sessions/" + working.id() + "/execute", "{\"code\":\"n += 1\\nn\"}", working.token());
                sent.incrementAndGet();
                if (r.status() != 200 || !"ok".equals(r.json().string("status"))) {
                    failures.add(r.status() + " " + r.body());
                }
            }
        });

        var result = n1.main.drain(Duration.ofMinutes(3));
        drained.set(true);
        client.get();

        assertThat(result.moved()).isEqualTo(6);
        assertThat(result.left()).isZero();
        TestApp.Response ranFirst = running.get();
        assertThat(ranFirst.status()).isEqualTo(200);
        assertThat(ranFirst.json().objectList("results").get(0).string("text/plain")).isEqualTo("7");
        assertThat(failures).isEmpty();

        for (int i = 0; i < sessions.size(); i++) {
            TestApp.SessionRef s = sessions.get(i);
            // through the drained node (it forwards) and on the new one directly
            TestApp.Response viaN1 = n1.post("/api/v1/sessions/" + s.id() + "/execute", "{\"code\":\"(x, open('f.txt').read())\"}", s.token());
            assertThat(viaN1.status()).isEqualTo(200);
            assertThat(viaN1.headers().get("x-codeinterp-node")).containsExactly("n2");
            assertThat(viaN1.json().objectList("results").get(0).string("text/plain")).isEqualTo("(" + i + ", 'file " + i + "')");
            // the client above may have sent over a thousand cells: more than one page of history
            List<JsonObject> history = n2.history(s);
            TestApp.assertOneFinishedPerCell(history);
            assertThat(history).noneMatch(e -> e.string("type").equals("restarted"));
        }
        assertThat(n2.execute(busy, "y", null).objectList("results").get(0).string("text/plain")).isEqualTo("7");
        assertThat(n2.execute(working, "n", null).objectList("results").get(0).string("text/plain"))
                .isEqualTo(String.valueOf(sent.get()));
        assertThat(n1.main.sessions().ownIds()).isEmpty();
        assertThat(n2.get("/healthz/room", null).status()).isEqualTo(200);
        assertThat(n1.get("/healthz/room", null).status()).isEqualTo(503);
    }

    @Test
    @Timeout(120)
    void a_handover_that_is_not_a_nodes_is_refused_before_anything_is_written() throws Exception {
        TestApp.SessionRef s = n2.createSession();
        n2.execute(s, "z = 5", null);
        String keyHash = Tokens.hash(Files.readString(n1.dataDir.resolve("node/key"), StandardCharsets.UTF_8).trim());
        long now = System.currentTimeMillis();

        assertThat(handOver(n1, s.id(), "n2", null).status()).isEqualTo(403);
        assertThat(handOver(n1, s.id(), "n2", NodeProof.sign("not-the-key-hash", "handover\n" + s.id(), now)).status()).isEqualTo(403);
        // n1's own proof, but for another session, or too old, or claiming to be n2
        assertThat(handOver(n2, s.id(), "n1", NodeProof.sign(keyHash, "handover\nsomething-else", now)).status()).isEqualTo(403);
        assertThat(handOver(n2, s.id(), "n1", NodeProof.sign(keyHash, "handover\n" + s.id(), now - 120_000)).status()).isEqualTo(403);
        assertThat(handOver(n1, s.id(), "n2", NodeProof.sign(keyHash, "handover\n" + s.id(), now)).status()).isEqualTo(403);
        // a path that is no session id, with a good proof for it
        assertThat(handOver(n2, "..", "n1", NodeProof.sign(keyHash, "handover\n..", now)).status()).isIn(403, 404);
        // a good proof from n1 for a session that is not n1's to give
        assertThat(handOver(n2, s.id(), "n1", NodeProof.sign(keyHash, "handover\n" + s.id(), now)).status()).isEqualTo(409);

        assertThat(Files.exists(n2.dataDir.resolve("suspended").resolve(s.id()))).isFalse();
        assertThat(n2.execute(s, "z", null).objectList("results").get(0).string("text/plain")).isEqualTo("5");
    }

    private static TestApp.Response handOver(TestApp to, String id, String from, String proof) {
        HttpRequest.Builder b = to.request("/internal/v1/sessions/" + id, null).header("X-CodeInterp-From", from)
                .header("Content-Type", "application/x-tar")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(new byte[10240]));
        if (proof != null) {
            b.header("X-CodeInterp-Proof", proof);
        }
        return to.send(b.build());
    }
}
