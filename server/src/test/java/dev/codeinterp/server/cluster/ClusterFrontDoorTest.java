// Over 300 lines: the cluster stage's six scenarios share one cluster that is expensive to bring up (test.sh starts it once).
package dev.codeinterp.server.cluster;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real cluster on this machine (scripts/cluster.sh up 3, started by test.sh): three nodes, each in
 * its own network namespace with its own Docker engine, one PostgreSQL, HAProxy in front. Everything
 * here goes through the front door, as a user's requests do; node loss kills a node's server and
 * engine for real. CLUSTER_FRONT is the front URL; CLUSTER_KEY a key to create sessions with,
 * CLUSTER_QUOTA_KEY one whose quota is 3.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterFrontDoorTest {
    private static final String FRONT = System.getenv("CLUSTER_FRONT");
    private static final String KEY = System.getenv("CLUSTER_KEY");
    private static final String QUOTA_KEY = System.getenv("CLUSTER_QUOTA_KEY");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    record Session(String id, String token) {
        String node() {
            return id.substring(0, id.indexOf('.'));
        }
    }

    record Answer(int status, String body, String node) {
        JsonObject json() {
            return JsonObject.parse(body);
        }
    }

    @Test
    @Order(1)
    @Timeout(180)
    void creates_through_the_front_door_spread_over_the_nodes_and_each_session_keeps_its_state() throws Exception {
        assumeCluster();
        List<Session> sessions = new ArrayList<>();
        Set<String> nodes = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            Session s = create(KEY);
            sessions.add(s);
            nodes.add(s.node());
            assertThat(execute(s, "x = " + i).status()).isEqualTo(200);
        }
        assertThat(nodes).containsExactlyInAnyOrder("n1", "n2", "n3");
        for (int i = 0; i < sessions.size(); i++) {
            Answer a = execute(sessions.get(i), "x * 10");
            assertThat(a.status()).isEqualTo(200);
            assertThat(a.node()).isEqualTo(sessions.get(i).node());
            assertThat(a.json().objectList("results").get(0).string("text/plain")).isEqualTo(String.valueOf(i * 10));
        }
        JsonObject health = JsonObject.parse(send(HttpRequest.newBuilder(URI.create(FRONT + "/healthz")).GET(), null).body());
        assertThat(health.object("cluster").objectList("nodes")).hasSize(3)
                .allSatisfy(n -> assertThat(n.string("state")).isEqualTo("active"));
    }

    @Test
    @Order(2)
    @Timeout(120)
    void a_websocket_through_the_front_door_streams_a_cell_live_and_resumes_where_it_left_off() throws Exception {
        assumeCluster();
        Session s = create(KEY);
        String ws = FRONT.replaceFirst("^http", "ws") + "/api/v1/sessions/" + s.id() + "/ws";
        long lastSeq;
        try (WsClient client = WsClient.connect(ws, null)) {
            client.send(new ClientMessage.Hello(s.token(), 0));
            assertThat(client.next(10_000)).isInstanceOf(ServerMessage.Welcome.class);
            client.send(new ClientMessage.Execute("import time\nfor i in range(3):\n    print(i, flush=True)\n    time.sleep(0.4)", null));
            List<Long> arrivals = new ArrayList<>();
            lastSeq = 0;
            while (true) {
                ServerMessage m = client.next(20_000);
                if (m instanceof ServerMessage.EventFrame f) {
                    lastSeq = f.event().seq();
                    if (f.event().event() instanceof Event.Stream) {
                        arrivals.add(System.nanoTime());
                    }
                    if (f.event().event() instanceof Event.Finished) {
                        break;
                    }
                }
            }
            assertThat(arrivals).hasSize(3);
            assertThat((arrivals.get(2) - arrivals.get(0)) / 1_000_000).isGreaterThan(500); // live, not all at the end
        }
        execute(s, "print('while away')");
        try (WsClient client = WsClient.connect(ws, null)) {
            client.send(new ClientMessage.Hello(s.token(), lastSeq));
            assertThat(client.next(10_000)).isInstanceOf(ServerMessage.Welcome.class);
            boolean sawIt = false;
            while (!sawIt) {
                if (client.next(10_000) instanceof ServerMessage.EventFrame f && f.event().event() instanceof Event.Stream st) {
                    assertThat(f.event().seq()).isGreaterThan(lastSeq);
                    sawIt = st.text().contains("while away");
                }
            }
        }
    }

    @Test
    @Order(3)
    @Timeout(120)
    void a_keys_quota_of_three_is_three_sessions_in_the_cluster_whichever_nodes_they_land_on() throws Exception {
        assumeCluster();
        List<Session> mine = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            mine.add(create(QUOTA_KEY));
        }
        assertThat(mine.stream().map(Session::node).distinct().count()).as("spread over nodes").isGreaterThan(1);
        Answer refused = createAnswer(QUOTA_KEY);
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.json().string("limit")).isEqualTo("sessions_per_client");
        assertThat(send(HttpRequest.newBuilder(URI.create(FRONT + "/api/v1/sessions/" + mine.get(0).id())).DELETE(),
                mine.get(0).token()).status()).isEqualTo(204);
        assertThat(createAnswer(QUOTA_KEY).status()).isEqualTo(201);
    }

    @Test
    @Order(4)
    @Timeout(180)
    void a_killed_node_s_sessions_are_marked_lost_within_15_s_and_no_other_session_notices() throws Exception {
        assumeCluster();
        List<Session> sessions = new ArrayList<>();
        while (sessions.stream().map(Session::node).distinct().count() < 3 || sessions.size() < 6) {
            Session s = create(KEY);
            assertThat(execute(s, "kept = '" + s.node() + "'").status()).isEqualTo(200);
            sessions.add(s);
        }
        Session onN2 = sessions.stream().filter(s -> s.node().equals("n2")).findFirst().orElseThrow();
        long killing = System.nanoTime();
        cluster("kill", "n2"); // its server first, then its engine and sandboxes: seconds on a loaded machine
        long killedAt = System.nanoTime();

        Answer lost;
        do {
            Thread.sleep(250);
            lost = execute(onN2, "1");
        } while (lost.status() != 410 && System.nanoTime() - killedAt < Duration.ofSeconds(30).toNanos());
        long markedAfterMs = (System.nanoTime() - killedAt) / 1_000_000;
        assertThat(lost.status()).isEqualTo(410);
        assertThat(markedAfterMs).isLessThan(15_000);
        assertThat(lost.json().string("error")).contains("n2").contains("was lost");
        System.out.printf("node loss: killing n2 took %d ms; from then its session answered 410 after %d ms%n",
                (killedAt - killing) / 1_000_000, markedAfterMs);

        Answer history = send(HttpRequest.newBuilder(URI.create(FRONT + "/api/v1/sessions/" + onN2.id() + "/events")).GET(), onN2.token());
        assertThat(history.status()).isEqualTo(200);
        assertThat(history.body()).contains("kept = 'n2'");
        for (Session s : sessions) {
            if (!s.node().equals("n2")) {
                Answer a = execute(s, "kept");
                assertThat(a.status()).isEqualTo(200);
                assertThat(a.json().objectList("results").get(0).string("text/plain")).isEqualTo("'" + s.node() + "'");
            }
        }
        Set<String> landed = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            landed.add(create(KEY).node());
        }
        assertThat(landed).doesNotContain("n2");

        cluster("start", "n2");
        assertThat(execute(onN2, "1").status()).isEqualTo(410); // back, owning nothing it had
    }

    @Test
    @Order(5)
    @Timeout(120)
    void an_mcp_session_through_the_front_door_keeps_reaching_the_node_that_holds_it() {
        assumeCluster();
        var mcp = new dev.codeinterp.server.mcp.McpHttp(URI.create(FRONT + "/mcp"), KEY).initialize();
        String node = mcp.sessionId.substring(0, mcp.sessionId.indexOf('.'));
        assertThat(node).isIn("n1", "n2", "n3");
        String session = mcp.result("create_session", java.util.Map.of()).object("structuredContent").string("session_id");
        mcp.result("run_code", java.util.Map.of("session_id", session, "code", "n = 0"));
        for (int i = 1; i <= 6; i++) { // least connections alone would send most of these to the other nodes
            JsonObject ran = mcp.result("run_code", java.util.Map.of("session_id", session, "code", "n += 1\nprint(n)"));
            assertThat(ran.object("structuredContent").string("stdout")).isEqualTo(i + "\n");
        }
    }

    @Test
    @Order(6)
    @Timeout(600)
    void a_drained_node_hands_its_hundred_sessions_to_the_others_and_a_client_working_through_it_sees_no_failed_cell() throws Exception {
        assumeCluster();
        String n1 = clusterOutput("url", "n1");
        List<Session> onN1 = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<?>> made = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                int n = i;
                made.add(pool.submit(() -> {
                    Answer created = send(HttpRequest.newBuilder(URI.create(n1 + "/api/v1/sessions")).POST(HttpRequest.BodyPublishers.noBody()), KEY);
                    assertThat(created.status()).as(created.body()).isEqualTo(201);
                    Session s = new Session(created.json().string("id"), created.json().string("token"));
                    Answer set = execute(s, "x = " + n + "\nopen('f.txt', 'w').write('file " + n + "')");
                    assertThat(set.status()).as(set.body()).isEqualTo(200);
                    assertThat(set.json().string("status")).as(s.id() + " before the drain: " + set.body()).isEqualTo("ok");
                    onN1.add(s);
                    return null;
                }));
            }
            for (var f : made) {
                f.get();
            }
            List<Session> sessions = onN1.stream().sorted(java.util.Comparator.comparing(Session::id)).toList();
            assertThat(sessions).hasSize(100).allSatisfy(s -> assertThat(s.node()).isEqualTo("n1"));
            Session working = sessions.get(0);
            assertThat(execute(working, "n = 0").status()).isEqualTo(200);

            // a client that keeps sending cells through the front door while n1 drains, and a little after
            java.util.concurrent.atomic.AtomicBoolean drained = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicInteger sent = new java.util.concurrent.atomic.AtomicInteger();
            List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            Set<String> servedBy = java.util.concurrent.ConcurrentHashMap.newKeySet();
            var client = pool.submit(() -> {
                long after = Long.MAX_VALUE;
                while (System.nanoTime() < after) {
                    Answer a = execute(working, "n += 1\nn");
                    sent.incrementAndGet();
                    servedBy.add(String.valueOf(a.node()));
                    if (a.status() != 200 || !"ok".equals(a.json().string("status"))) {
                        failures.add(a.status() + " " + a.body());
                    }
                    if (drained.get() && after == Long.MAX_VALUE) {
                        after = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                    }
                }
                return null;
            });
            long t0 = System.nanoTime();
            cluster("drain", "n1"); // SIGTERM with DRAIN_ON_STOP: returns once n1's server has exited
            long drainMs = (System.nanoTime() - t0) / 1_000_000;
            drained.set(true);
            client.get();

            assertThat(failures).as("cells that failed while n1 drained").isEmpty();
            assertThat(execute(working, "n").json().objectList("results").get(0).string("text/plain")).isEqualTo(String.valueOf(sent.get()));
            List<java.util.concurrent.Future<String>> checked = new ArrayList<>();
            for (Session s : sessions) {
                checked.add(pool.submit(() -> {
                    Answer a = execute(s, "(x, open('f.txt').read())");
                    assertThat(a.status()).as(a.body()).isEqualTo(200);
                    assertThat(a.node()).isIn("n2", "n3");
                    assertThat(a.json().string("status")).as(s.id() + " after the drain: " + a.body()).isEqualTo("ok");
                    return a.json().objectList("results").get(0).string("text/plain");
                }));
            }
            Set<String> expected = new HashSet<>();
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < 100; i++) {
                expected.add("(" + i + ", 'file " + i + "')");
                seen.add(checked.get(i).get());
            }
            assertThat(seen).isEqualTo(expected);
            System.out.printf("drain: n1 handed over 100 sessions and exited in %d ms; a client sent %d cells through it, %d failed, served by %s%n",
                    drainMs, sent.get(), failures.size(), new java.util.TreeSet<>(servedBy));
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- the front door, as a client sees it ----------------------------------------------------

    private static void assumeCluster() {
        assumeTrue(FRONT != null && !FRONT.isBlank(), "CLUSTER_FRONT: the front URL scripts/cluster.sh up printed");
        assumeTrue(KEY != null && QUOTA_KEY != null, "CLUSTER_KEY and CLUSTER_QUOTA_KEY");
    }

    private static Session create(String key) throws Exception {
        if (key == null) {
            throw new IllegalArgumentException("the cluster requires keys");
        }
        Answer a = createAnswer(key);
        assertThat(a.status()).as(a.body()).isEqualTo(201);
        return new Session(a.json().string("id"), a.json().string("token"));
    }

    private static Answer createAnswer(String key) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(FRONT + "/api/v1/sessions")).POST(HttpRequest.BodyPublishers.noBody()), key);
    }

    private static Answer execute(Session s, String code) throws Exception {
        String body = "{\"code\":" + dev.codeinterp.model.json.Json.write(code) + "}";
        return send(HttpRequest.newBuilder(URI.create(FRONT + "/api/v1/sessions/" + s.id() + "/execute"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)), s.token());
    }

    private static Answer send(HttpRequest.Builder request, String bearer) throws IOException, InterruptedException {
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        HttpResponse<String> r = HTTP.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body(), r.headers().firstValue("X-CodeInterp-Node").orElse(null));
    }

    /** What {@code cluster.sh ARGS} printed, its last line. */
    private static String clusterOutput(String... args) throws Exception {
        Process p = new ProcessBuilder(clusterCommand(args)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor()).as("cluster.sh " + String.join(" ", args)).isZero();
        return out.substring(out.lastIndexOf('\n') + 1);
    }

    private static void cluster(String... args) throws Exception {
        Process p = new ProcessBuilder(clusterCommand(args)).inheritIO().start();
        assertThat(p.waitFor()).as("cluster.sh " + String.join(" ", args)).isZero();
    }

    private static List<String> clusterCommand(String... args) {
        List<String> command = new ArrayList<>(List.of("bash", Path.of("..", "scripts", "cluster.sh").toString()));
        command.addAll(List.of(args));
        return command;
    }
}
