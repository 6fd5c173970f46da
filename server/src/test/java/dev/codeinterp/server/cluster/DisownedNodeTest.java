package dev.codeinterp.server.cluster;

import dev.codeinterp.server.store.Database;
import dev.codeinterp.server.store.NodeRepository;
import dev.codeinterp.server.store.TestStores;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node the others marked lost (it was unheard, say cut off from the store) drops every session it
 * held: a caller waiting there for a cell hears at once that the session was lost, not a timeout
 * minutes later.
 */
class DisownedNodeTest {
    @Test
    @Timeout(120)
    void a_cell_waiting_on_a_node_the_others_marked_lost_is_answered_410_at_once() throws Exception {
        try (TestApp app = TestApp.start("runc", Map.of("POOL_SIZE", "0", "NODE_LOSS_AFTER", "2s"))) {
            TestApp.SessionRef s = app.createSession();
            app.execute(s, "import time", null);
            CompletableFuture<TestApp.Response> waiting = CompletableFuture.supplyAsync(() ->
                    app.post("/api/v1/sessions/" + s.id() + "/execute", "{\"code\":\"time.sleep(60)\",\"timeout\":90}", s.token()));
            awaitStarted(app, s, 2); // the sleep runs on this node
            String node = app.get("/healthz", null).json().object("cluster").string("node");
            long markedAt = System.nanoTime();
            try (Database store = Database.open(TestStores.forDataDir(app.dataDir), app.dataDir.resolve("codeinterp.db"))) {
                assertThat(new NodeRepository(store).markLost(node, Long.MAX_VALUE, "lost in the test")).isTrue();
            }

            TestApp.Response answer = waiting.get(30, TimeUnit.SECONDS);
            assertThat(answer.status()).as(answer.body()).isEqualTo(410);
            assertThat(answer.json().string("error")).isEqualTo("lost in the test");
            assertThat((System.nanoTime() - markedAt) / 1_000_000).isLessThan(10_000);
        }
    }

    /** Until the session's history holds {@code cells} `started` events (the @Timeout bounds the wait). */
    private static void awaitStarted(TestApp app, TestApp.SessionRef s, int cells) throws InterruptedException {
        while (app.history(s).stream().filter(e -> e.string("type").equals("started")).count() < cells) {
            Thread.sleep(50);
        }
    }
}
