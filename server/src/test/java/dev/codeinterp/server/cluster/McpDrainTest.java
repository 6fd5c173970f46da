package dev.codeinterp.server.cluster;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.mcp.McpHttp;
import dev.codeinterp.server.session.Tokens;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two real gVisor nodes on one PostgreSQL store; an agent works over MCP on n1 with two code sessions
 * and keeps calling tools, through n1, while n1 is drained. Its MCP session moves to n2 with both code
 * sessions, and the agent notices nothing.
 */
class McpDrainTest {
    private static final String ALICE = "ci_alice_" + "a".repeat(24);
    private static final String BOB = "ci_bob_" + "b".repeat(24);
    private static TwoNodes nodes;
    private static TestApp n1;
    private static TestApp n2;
    private static McpHttp alice;
    private static String counter;
    private static String other;
    private static NodeDrainResult drained;
    private static final List<String> failures = new CopyOnWriteArrayList<>();
    private static final AtomicInteger calls = new AtomicInteger();

    private record NodeDrainResult(int moved, int left) {
    }

    @BeforeAll
    @Timeout(300)
    static void an_agent_keeps_calling_tools_on_n1_while_n1_is_drained() throws Exception {
        Path keys = Files.createTempFile("keys", "");
        Files.writeString(keys, "alice " + Tokens.hash(ALICE) + "\nbob " + Tokens.hash(BOB) + "\n");
        nodes = TwoNodes.onPostgres("mcp-drain", "runsc", Map.of("POOL_SIZE", "0", "API_KEYS", keys.toString()));
        n1 = nodes.n1;
        n2 = nodes.n2;
        alice = new McpHttp(n1.uri("/mcp"), ALICE).initialize();
        counter = sessionId(alice.result("create_session", Map.of()));
        other = sessionId(alice.result("create_session", Map.of()));
        ok(alice.result("run_code", Map.of("session_id", counter, "code", "n = 0\nopen('f.txt', 'w').write('written on n1')")));
        ok(alice.result("run_code", Map.of("session_id", other, "code", "y = 7")));

        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Void> agent = CompletableFuture.runAsync(() -> {
            while (!done.get() || calls.get() < 3) {
                McpHttp.Answer a = alice.call("run_code", Map.of("session_id", counter, "code", "n += 1\nn"));
                calls.incrementAndGet();
                if (a.status() != 200 || a.messages().isEmpty() || !a.last().has("result")
                        || a.last().object("result").optBoolean("isError", false)) {
                    failures.add(a.status() + " " + a.body());
                }
            }
        });
        Thread.sleep(300);
        var result = n1.main.drain(Duration.ofMinutes(3));
        done.set(true);
        agent.get();
        drained = new NodeDrainResult(result.moved(), result.left());
    }

    @AfterAll
    static void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    @Test
    void an_mcp_client_that_keeps_calling_tools_through_a_drain_keeps_its_variables_and_files_with_no_failed_call() {
        assertThat(drained.left()).isZero();
        assertThat(drained.moved()).isEqualTo(2);
        assertThat(failures).isEmpty();
        // the MCP session and both its code sessions are on n2 now, together
        assertThat(n1.main.sessions().ownIds()).isEmpty();
        assertThat(n2.main.sessions().ownIds()).contains(counter, other);

        // through the drained node (it forwards, SSE and all) ...
        JsonObject both = alice.result("run_code", Map.of("session_id", counter, "code", "(n, open('f.txt').read())"));
        assertThat(McpHttp.text(both)).contains("(" + calls.get() + ", 'written on n1')");
        // ... and on n2 directly, with the same id
        McpHttp direct = new McpHttp(n2.uri("/mcp"), ALICE);
        direct.sessionId = alice.sessionId;
        assertThat(McpHttp.text(direct.result("run_code", Map.of("session_id", other, "code", "y")))).contains("7");
        assertThat(McpHttp.text(direct.result("read_file", Map.of("session_id", counter, "name", "f.txt")))).startsWith("written on n1");
    }

    @Test
    void another_clients_mcp_session_id_after_a_drain_is_still_404() {
        for (TestApp node : new TestApp[] {n1, n2}) {
            McpHttp bob = new McpHttp(node.uri("/mcp"), BOB);
            bob.sessionId = alice.sessionId;
            assertThat(bob.call("run_code", Map.of("session_id", counter, "code", "n")).status()).isEqualTo(404);
            assertThat(bob.request("tools/list", Map.of()).status()).isEqualTo(404);
            // a forged id, of the shape but never handed out
            bob.sessionId = "n1." + "A".repeat(22);
            assertThat(bob.request("tools/list", Map.of()).status()).isEqualTo(404);
        }
        // and the owner's MCP session is none the worse for it
        assertThat(alice.request("tools/list", Map.of()).status()).isEqualTo(200);
    }

    private static String sessionId(JsonObject created) {
        return created.object("structuredContent").string("session_id");
    }

    private static void ok(JsonObject result) {
        assertThat(result.optBoolean("isError", false)).as(McpHttp.text(result)).isFalse();
    }
}
