package dev.codeinterp.server.cluster;

import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The PostgreSQL two nodes share stops for twice their loss timeout and comes back: meanwhile creates
 * are refused plainly and the nodes keep their sessions; after it no node has marked the other lost
 * (each looked silent to the other: NodeRegistryTest holds the rule), and every session answers with
 * its variables, by itself. (test.sh's PostgreSQL pass: it stops and starts that server with
 * scripts/postgres.sh.)
 */
class StoreOutageAcrossNodesTest {
    @Test
    @Timeout(240)
    void a_store_outage_longer_than_the_loss_timeout_loses_no_node_and_no_session() throws Exception {
        try (TwoNodes nodes = TwoNodes.onPostgres("outage", "runc", Map.of("POOL_SIZE", "0", "NODE_LOSS_AFTER", "4s"))) {
            TestApp.SessionRef a = nodes.n1.createSession();
            TestApp.SessionRef b = nodes.n2.createSession();
            nodes.n1.execute(a, "kept = 'a'", null);
            nodes.n2.execute(b, "kept = 'b'", null);

            Path cluster = Path.of(System.getenv("TEST_POSTGRES_PASSWORD_FILE")).getParent();
            postgres("halt", cluster);
            try {
                Thread.sleep(1000);
                TestApp.Response refused = nodes.n1.post("/api/v1/sessions", "", null);
                assertThat(refused.status()).as(refused.body()).isEqualTo(503);
                assertThat(refused.headers()).containsKey("retry-after");
                Thread.sleep(7000); // twice the loss timeout without a heartbeat
            } finally {
                postgres("resume", cluster);
            }
            Thread.sleep(6000); // past a loss timeout of heartbeats on both sides: when a wrong judgement would come

            for (TestApp node : new TestApp[] {nodes.n1, nodes.n2}) {
                TestApp.Response onA = node.post("/api/v1/sessions/" + a.id() + "/execute", "{\"code\":\"kept\"}", a.token());
                TestApp.Response onB = node.post("/api/v1/sessions/" + b.id() + "/execute", "{\"code\":\"kept\"}", b.token());
                assertThat(onA.status()).as(onA.body()).isEqualTo(200);
                assertThat(onB.status()).as(onB.body()).isEqualTo(200);
                assertThat(onA.json().objectList("results").get(0).string("text/plain")).isEqualTo("'a'");
                assertThat(onB.json().objectList("results").get(0).string("text/plain")).isEqualTo("'b'");
            }
            assertThat(nodes.n1.get("/healthz", null).json().object("cluster").objectList("nodes"))
                    .allSatisfy(n -> assertThat(n.string("state")).isEqualTo("active"));
        }
    }

    private static void postgres(String command, Path cluster) throws Exception {
        Process p = new ProcessBuilder("bash", Path.of("..", "scripts", "postgres.sh").toString(), command, cluster.toString())
                .inheritIO().start();
        assertThat(p.waitFor()).as("postgres.sh " + command).isZero();
    }
}
