package dev.codeinterp.server.mcp;

import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** An MCP client that goes away without a DELETE: after the idle TTL its MCP session and code sessions are gone. */
class McpIdleTest {
    @Test
    void an_mcp_session_silent_past_the_idle_ttl_is_ended_with_its_code_sessions() throws Exception {
        try (TestApp app = TestApp.start("runc", Map.of("IDLE_TTL", "3s", "REAP_INTERVAL", "500ms", "POOL_SIZE", "0"))) {
            McpHttp mcp = new McpHttp(app.uri("/mcp"), null).initialize();
            mcp.result("create_session", Map.of());
            assertThat(app.main.sessions().liveCount()).isEqualTo(1);
            long deadline = System.currentTimeMillis() + 20_000;
            while (app.main.sessions().liveCount() > 0 && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
            }
            assertThat(app.main.sessions().liveCount()).isZero();
            Thread.sleep(1500); // a few reaper rounds; asking earlier would count as activity
            assertThat(mcp.request("tools/list", Map.of()).status()).isEqualTo(404);
        }
    }
}
