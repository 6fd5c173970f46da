package dev.codeinterp.server.cluster;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.mcp.McpHttp;
import dev.codeinterp.server.session.Tokens;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two live nodes on one PostgreSQL store: an MCP request that reaches the node not holding its
 * session (a proxy without the routing rule) is sent on to the one that does, its progress streamed
 * as it comes; the headers by which one node vouches for a client to another prove nothing when a
 * client sends them itself.
 */
class McpForwardingTest {
    private static final String ALICE = "ci_alice_" + "a".repeat(24);
    private static final String BOB = "ci_bob_" + "b".repeat(24);
    private static TwoNodes nodes;

    @BeforeAll
    static void startTwoNodes() throws Exception {
        Path keys = Files.createTempFile("keys", "");
        Files.writeString(keys, "alice " + Tokens.hash(ALICE) + "\nbob " + Tokens.hash(BOB) + "\n");
        nodes = TwoNodes.onPostgres("mcp-forwarding", "runc", Map.of("POOL_SIZE", "0", "API_KEYS", keys.toString()));
    }

    @AfterAll
    static void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    @Test
    @Timeout(120)
    void an_mcp_request_that_reaches_the_other_node_is_answered_by_the_session_s_node_with_progress_as_it_comes() {
        McpHttp onN1 = new McpHttp(nodes.n1.uri("/mcp"), ALICE).initialize();
        String code = onN1.result("create_session", Map.of()).object("structuredContent").string("session_id");
        onN1.result("run_code", Map.of("session_id", code, "code", "x = 6 * 7"));

        McpHttp viaN2 = new McpHttp(nodes.n2.uri("/mcp"), ALICE);
        viaN2.sessionId = onN1.sessionId;
        List<Long> arrivals = new ArrayList<>();
        List<JsonObject> messages = new ArrayList<>();
        JsonObject last = viaN2.callStreaming("run_code", Map.of("session_id", code,
                "code", "import time\nprint(x, flush=True)\ntime.sleep(2)\nprint(x + 1)"), m -> {
                    arrivals.add(System.nanoTime());
                    messages.add(m);
                });
        assertThat(McpHttp.text(last.object("result"))).contains("42").contains("43");
        assertThat(messages.get(0).optString("method", "")).isEqualTo("notifications/progress");
        assertThat((arrivals.get(arrivals.size() - 1) - arrivals.get(0)) / 1_000_000).as("the first line came before the cell ended")
                .isGreaterThan(1_000);
        assertThat(nodes.n2.main.sessions().ownIds()).doesNotContain(code);
    }

    @Test
    @Timeout(60)
    void a_client_claiming_to_be_vouched_for_by_a_node_is_still_only_itself() {
        McpHttp alice = new McpHttp(nodes.n1.uri("/mcp"), ALICE).initialize();
        for (var node : List.of(nodes.n1, nodes.n2)) {
            McpHttp bob = new McpHttp(node.uri("/mcp"), BOB);
            bob.sessionId = alice.sessionId;
            HttpRequest forged = bob.base().header("X-CodeInterp-Forwarded-By", "n1").header("X-CodeInterp-Mcp-Client", "key:alice")
                    .header("X-CodeInterp-From", "n1").header("X-CodeInterp-Proof", System.currentTimeMillis() + ".00ff")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}")).build();
            assertThat(McpHttp.exchange(forged).status()).isEqualTo(404);
        }
        assertThat(alice.request("tools/list", Map.of()).status()).isEqualTo(200);
    }
}
