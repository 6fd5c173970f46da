package dev.codeinterp.server.mcp;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** On gVisor, an agent forks its session with fork_session and gets a second one with the same variables. */
class McpForkTest {

    @Test
    void fork_session_gives_this_mcp_session_a_copy_that_goes_on_by_itself() {
        try (TestApp app = TestApp.start("runsc", Map.of("POOL_SIZE", "0"))) {
            McpHttp mcp = new McpHttp(app.uri("/mcp"), null).initialize();
            String source = mcp.result("create_session", Map.of()).object("structuredContent").string("session_id");
            mcp.result("run_code", Map.of("session_id", source, "code", "data = {'rows': 3}"));

            JsonObject forked = mcp.result("fork_session", Map.of("session_id", source));
            String fork = forked.object("structuredContent").string("session_id");
            assertThat(fork).isNotEqualTo(source);
            assertThat(McpHttp.text(mcp.result("run_code", Map.of("session_id", fork, "code", "data['rows'] += 1\ndata"))))
                    .contains("{'rows': 4}");
            assertThat(McpHttp.text(mcp.result("run_code", Map.of("session_id", source, "code", "data")))).contains("{'rows': 3}");

            McpHttp other = new McpHttp(app.uri("/mcp"), null).initialize();
            JsonObject notTheirs = other.call("fork_session", Map.of("session_id", source)).last().object("result");
            assertThat(notTheirs.optBoolean("isError", false)).as("another MCP session cannot fork it").isTrue();
            assertThat(McpHttp.text(notTheirs)).contains("no such session");
            mcp.result("close_session", Map.of("session_id", fork));
            mcp.result("close_session", Map.of("session_id", source));
        }
    }
}
