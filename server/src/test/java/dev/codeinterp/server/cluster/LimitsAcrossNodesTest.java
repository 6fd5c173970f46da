package dev.codeinterp.server.cluster;

import dev.codeinterp.server.store.TestStores;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two real servers, nodes n1 and n2, on one PostgreSQL database (test.sh's second pass; a cluster
 * shares nothing else, and SQLite's file is one server's): a client's quota and MAX_SESSIONS are
 * the cluster's, whichever node each create lands on, and creates racing on both nodes for the
 * last places get exactly as many as there are.
 */
class LimitsAcrossNodesTest {
    @TempDir
    Path dir;
    private TwoNodes nodes;
    private TestApp n1;
    private TestApp n2;

    @BeforeEach
    void startTwoNodes() {
        assumeTrue(TestStores.postgres(), "a cluster's nodes share a PostgreSQL store");
        nodes = new TwoNodes(dir, Map.of("MAX_SESSIONS_PER_CLIENT", "3", "MAX_SESSIONS", "100", "POOL_SIZE", "0"));
        n1 = nodes.n1;
        n2 = nodes.n2;
    }

    @AfterEach
    void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    @Test
    @Timeout(120)
    void a_quota_of_three_is_three_sessions_in_the_cluster_not_three_per_node() {
        TestApp.SessionRef a = n1.createSession();
        n1.createSession();
        n2.createSession();
        TestApp.Response refused = n2.post("/api/v1/sessions", "", null);
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.json().string("limit")).isEqualTo("sessions_per_client");
        assertThat(refused.json().string("error")).contains("3 sessions open in the cluster");
        assertThat(refused.headers().get("retry-after")).isNotEmpty();
        assertThat(n1.post("/api/v1/sessions", "", null).status()).isEqualTo(429);

        assertThat(n1.delete("/api/v1/sessions/" + a.id(), a.token()).status()).isEqualTo(204);
        assertThat(n2.createSession().id()).startsWith("n2.");
    }

    @Test
    @Timeout(180)
    void creates_racing_on_both_nodes_for_the_last_places_get_exactly_as_many_as_there_are() throws Exception {
        n1.createSession(); // one of three taken: two places left for ten creates at once
        CountDownLatch go = new CountDownLatch(1);
        List<Integer> statuses = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            TestApp node = i % 2 == 0 ? n1 : n2;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    statuses.add(node.post("/api/v1/sessions", "", null).status());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            threads.add(t);
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertThat(statuses).hasSize(10);
        assertThat(statuses.stream().filter(s -> s == 201).count()).isEqualTo(2);
        assertThat(statuses.stream().filter(s -> s == 429 || s == 503).count()).isEqualTo(8);
    }
}
