package dev.codeinterp.server.mcp;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.session.Tokens;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server that stops (SIGTERM) and starts again on the same data directory keeps its MCP sessions:
 * a client goes on with the id it holds, its code sessions with their variables and files; the id is
 * still its own client's only, and DELETE still ends it with its code sessions.
 */
class McpRestartTest {
    private static final String ALICE = "ci_alice_" + "a".repeat(24);
    private static final String BOB = "ci_bob_" + "b".repeat(24);

    @Test
    @Timeout(180)
    void an_mcp_session_survives_a_restart_of_its_server() throws Exception {
        Path dataDir = Files.createTempDirectory("codeinterp-mcp-restart");
        Path keys = Files.createTempFile("keys", "");
        Files.writeString(keys, "alice " + Tokens.hash(ALICE) + "\nbob " + Tokens.hash(BOB) + "\n");
        Map<String, String> settings = Map.of("POOL_SIZE", "0", "API_KEYS", keys.toString());
        String mcpSession;
        String code;
        TestApp first = TestApp.start("runc", settings, dataDir);
        try {
            McpHttp alice = new McpHttp(first.uri("/mcp"), ALICE).initialize();
            mcpSession = alice.sessionId;
            code = alice.result("create_session", Map.of()).object("structuredContent").string("session_id");
            alice.result("run_code", Map.of("session_id", code, "code", "x = 41\nopen('f.txt', 'w').write('kept')"));
        } finally {
            first.stop();
        }
        try (TestApp next = TestApp.start("runc", settings, dataDir)) {
            // another client holding the id learns nothing, and does not wake it
            McpHttp bob = new McpHttp(next.uri("/mcp"), BOB);
            bob.sessionId = mcpSession;
            assertThat(bob.call("run_code", Map.of("session_id", code, "code", "x")).status()).isEqualTo(404);

            McpHttp alice = new McpHttp(next.uri("/mcp"), ALICE);
            alice.sessionId = mcpSession;
            JsonObject after = alice.result("run_code", Map.of("session_id", code, "code", "x + 1"));
            assertThat(after.optBoolean("isError", false)).as(McpHttp.text(after)).isFalse();
            assertThat(McpHttp.text(after)).contains("42");
            assertThat(McpHttp.text(alice.result("read_file", Map.of("session_id", code, "name", "f.txt")))).startsWith("kept");
            assertThat(alice.request("tools/list", Map.of()).status()).isEqualTo(200);

            // a new MCP session of the same client still cannot name the old one's code session
            McpHttp other = new McpHttp(next.uri("/mcp"), ALICE).initialize();
            JsonObject refused = other.result("run_code", Map.of("session_id", code, "code", "x"));
            assertThat(McpHttp.text(refused)).contains("no such session");

            assertThat(alice.delete().status()).isEqualTo(200);
            assertThat(alice.request("tools/list", Map.of()).status()).isEqualTo(404);
            assertThat(next.main.sessions().ownIds()).doesNotContain(code);
        } finally {
            TestApp.discardWorkspaces(dataDir);
        }
    }

    @Test
    @Timeout(120)
    void an_mcp_session_whose_client_never_comes_back_after_a_restart_still_ends_after_the_idle_ttl() throws Exception {
        Path dataDir = Files.createTempDirectory("codeinterp-mcp-restart-idle");
        Map<String, String> settings = Map.of("POOL_SIZE", "0", "IDLE_TTL", "3s", "REAP_INTERVAL", "500ms");
        McpHttp mcp;
        TestApp first = TestApp.start("runc", settings, dataDir);
        try {
            mcp = new McpHttp(first.uri("/mcp"), null).initialize();
            mcp.result("create_session", Map.of());
        } finally {
            first.stop();
        }
        try (TestApp next = TestApp.start("runc", settings, dataDir)) {
            Thread.sleep(6_000); // the TTL, the store's slack, a few reaper rounds; a request earlier would bring it back
            McpHttp late = new McpHttp(next.uri("/mcp"), null);
            late.sessionId = mcp.sessionId;
            assertThat(late.request("tools/list", Map.of()).status()).isEqualTo(404);
            assertThat(next.main.sessions().ownIds()).isEmpty();
        } finally {
            TestApp.discardWorkspaces(dataDir);
        }
    }
}
