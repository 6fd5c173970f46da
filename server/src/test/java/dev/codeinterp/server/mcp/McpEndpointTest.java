// Over 300 lines: the MCP tools' behaviour through the real SDK client, one short case each, on one server.
package dev.codeinterp.server.mcp;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.session.Tokens;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MCP endpoint against the real server and engine (runc) with API keys: who may call it, whose
 * sessions are whose, and what hostile input gets (a clear error, never a 500 or a hang).
 */
class McpEndpointTest {
    private static final String ALICE = "ci_alice_" + "a".repeat(24);
    private static final String BOB = "ci_bob_" + "b".repeat(24);
    private static TestApp app;
    private static URI endpoint;

    @BeforeAll
    static void start() throws Exception {
        Path keys = Files.createTempFile("keys", "");
        Files.writeString(keys, "alice " + Tokens.hash(ALICE) + " 2\nbob " + Tokens.hash(BOB) + "\n");
        app = TestApp.start("runc", Map.of("API_KEYS", keys.toString(), "MAX_CODE", "64k",
                "MAX_INPUT_FILES", "256k", "MAX_UPLOAD", "1m"));
        endpoint = app.uri("/mcp");
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static McpHttp alice() {
        return new McpHttp(endpoint, ALICE).initialize();
    }

    private static String text(JsonObject result) {
        return McpHttp.text(result);
    }

    @Test
    void without_a_key_or_with_a_wrong_one_mcp_answers_401_with_a_bearer_challenge() {
        for (String key : new String[] {null, "ci_wrong_" + "x".repeat(24)}) {
            McpHttp.Answer a = new McpHttp(endpoint, key).request("initialize", Map.of("protocolVersion", "2025-06-18",
                    "capabilities", Map.of(), "clientInfo", Map.of("name", "t", "version", "1")));
            assertThat(a.status()).as(String.valueOf(key)).isEqualTo(401);
            assertThat(a.header("WWW-Authenticate")).startsWith("Bearer");
            assertThat(a.body()).contains("\"error\"");
        }
    }

    @Test
    void an_mcp_session_id_names_this_node_so_a_front_door_routes_it_and_another_nodes_is_unknown_here() {
        McpHttp mcp = alice();
        String node = app.get("/healthz", null).json().object("cluster").string("node");
        assertThat(mcp.sessionId).matches(java.util.regex.Pattern.quote(node) + "\\.[A-Za-z0-9_-]{22}");
        assertThat(mcp.request("tools/list", Map.of()).status()).isEqualTo(200);

        String mine = mcp.sessionId;
        for (String other : List.of("n9" + mine.substring(mine.indexOf('.')), mine.substring(0, mine.length() - 1) + "!",
                java.util.UUID.randomUUID().toString())) {
            mcp.sessionId = other;
            assertThat(mcp.request("tools/list", Map.of()).status()).as(other).isEqualTo(404);
        }
    }

    @Test
    void tools_are_listed_with_schemas_and_descriptions() {
        JsonObject result = alice().request("tools/list", Map.of()).last().object("result");
        List<JsonObject> tools = result.objectList("tools");
        assertThat(tools).extracting(t -> t.string("name")).containsExactlyInAnyOrder("run_code", "create_session",
                "fork_session", "close_session", "interrupt", "restart", "upload_file", "list_files", "read_file");
        for (JsonObject t : tools) {
            assertThat(t.string("description")).as(t.string("name")).hasSizeGreaterThan(40);
            assertThat(t.object("inputSchema").string("type")).isEqualTo("object");
        }
    }

    @Test
    void a_one_shot_run_returns_text_and_the_rest_shape() {
        JsonObject result = alice().result("run_code", Map.of("code", "print(6*7)"));
        assertThat(text(result)).contains("42");
        assertThat(result.optBoolean("isError", false)).isFalse();
        JsonObject structured = result.object("structuredContent");
        assertThat(structured.string("stdout")).isEqualTo("42\n");
        assertThat(structured.string("status")).isEqualTo("ok");

        JsonObject wrote = alice().result("run_code", Map.of("code", "open('out.txt', 'w').write('hi')"));
        assertThat(text(wrote)).contains("wrote file out.txt");
        JsonObject file = wrote.object("structuredContent").objectList("files").get(0);
        assertThat(file.string("name")).isEqualTo("out.txt");
        assertThat(new String(Base64.getDecoder().decode(file.string("content_base64")), StandardCharsets.UTF_8)).isEqualTo("hi");
    }

    @Test
    void run_code_speaks_javascript_and_bash_and_its_schema_refuses_a_language_it_does_not_know() {
        JsonObject js = alice().result("run_code", Map.of("language", "javascript", "code", "const n = 6 * 7; console.log(n)"));
        assertThat(js.object("structuredContent").string("stdout")).isEqualTo("42\n");
        JsonObject sh = alice().result("run_code", Map.of("language", "bash", "code", "echo $((6*7))"));
        assertThat(sh.object("structuredContent").string("stdout")).isEqualTo("42\n");
        JsonObject cobol = alice().result("run_code", Map.of("language", "cobol", "code", "DISPLAY 1"));
        assertThat(cobol.optBoolean("isError", false)).isTrue();
        assertThat(text(cobol)).contains("/language: does not have a value in the enumeration");
    }

    @Test
    void run_code_installs_an_allowlisted_npm_package_before_the_code_and_numpy_asks_for_nothing() {
        JsonObject js = alice().result("run_code", Map.of("language", "javascript", "packages", List.of("is-odd"),
                "code", "console.log(require('is-odd')(7))"));
        assertThat(js.object("structuredContent").string("stdout")).as(js.asMap().toString()).isEqualTo("true\n");
        JsonObject py = alice().result("run_code", Map.of("packages", List.of("numpy"), "code", "import numpy; print('np')"));
        assertThat(py.object("structuredContent").string("stdout")).as("preinstalled: accepted, nothing fetched").isEqualTo("np\n");
    }

    @Test
    void a_session_keeps_state_and_streams_progress_when_asked() {
        McpHttp mcp = alice();
        String id = mcp.result("create_session", Map.of()).object("structuredContent").string("session_id");
        try {
            mcp.result("run_code", Map.of("session_id", id, "code", "x = 6*7"));
            McpHttp.Answer a = mcp.request("tools/call", Map.of("name", "run_code", "_meta", Map.of("progressToken", "p1"),
                    "arguments", Map.of("session_id", id, "code", "import time\nfor i in range(3):\n    print(x + i, flush=True)\n    time.sleep(0.3)")));
            assertThat(text(a.last().object("result"))).contains("42\n43\n44");
            assertThat(a.messages()).anySatisfy(m -> {
                assertThat(m.optString("method", "")).isEqualTo("notifications/progress");
                assertThat(m.object("params").string("progressToken")).isEqualTo("p1");
            });
        } finally {
            mcp.result("close_session", Map.of("session_id", id));
        }
    }

    @Test
    void a_quiet_run_longer_than_the_connection_idle_timeout_still_answers() {
        JsonObject result = alice().result("run_code", Map.of("code", "import time; time.sleep(35); print('done')", "timeout", 60));
        assertThat(text(result)).contains("done");
    }

    @Test
    void fork_session_on_runc_is_an_error_that_says_why_and_the_session_goes_on() {
        McpHttp mcp = alice();
        String id = mcp.result("create_session", Map.of()).object("structuredContent").string("session_id");
        try {
            mcp.result("run_code", Map.of("session_id", id, "code", "x = 41"));
            JsonObject refused = mcp.call("fork_session", Map.of("session_id", id)).last().object("result");
            assertThat(refused.optBoolean("isError", false)).isTrue();
            assertThat(text(refused)).contains("cannot fork sessions").contains("runc");
            assertThat(text(mcp.result("run_code", Map.of("session_id", id, "code", "x + 1")))).contains("42");
        } finally {
            mcp.result("close_session", Map.of("session_id", id));
        }
    }

    @Test
    void interrupt_stops_a_running_cell_of_the_same_mcp_session() throws Exception {
        McpHttp mcp = alice();
        String id = mcp.result("create_session", Map.of()).object("structuredContent").string("session_id");
        try {
            java.util.concurrent.CountDownLatch printed = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CompletableFuture<JsonObject> running = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> mcp.callStreaming("run_code", Map.of("session_id", id, "code", "import time\nprint('start', flush=True)\ntime.sleep(60)"),
                            m -> {
                                if (m.optString("method", "").equals("notifications/progress") && Json.write(m.asMap()).contains("start")) {
                                    printed.countDown();
                                }
                            }));
            // the cell is running (it printed), not queued: an interrupt now is a KeyboardInterrupt in it
            assertThat(printed.await(60, java.util.concurrent.TimeUnit.SECONDS)).as("the cell printed 'start'").isTrue();
            mcp.result("interrupt", Map.of("session_id", id));
            JsonObject stopped = running.get(30, java.util.concurrent.TimeUnit.SECONDS).object("result");
            assertThat(stopped.object("structuredContent").string("status")).isEqualTo("interrupted");
            assertThat(stopped.optBoolean("isError", false)).isTrue();
        } finally {
            mcp.result("close_session", Map.of("session_id", id));
        }
    }

    @Test
    void a_session_is_only_usable_by_the_mcp_session_that_made_it() {
        McpHttp owner = alice();
        McpHttp other = alice();
        String id = owner.result("create_session", Map.of()).object("structuredContent").string("session_id");
        try {
            for (String tool : new String[] {"interrupt", "restart", "list_files", "close_session"}) {
                JsonObject refused = other.result(tool, Map.of("session_id", id));
                assertThat(refused.optBoolean("isError", false)).as(tool).isTrue();
                assertThat(text(refused)).as(tool).contains("no such session");
            }
            JsonObject run = other.result("run_code", Map.of("session_id", id, "code", "print(1)"));
            assertThat(run.optBoolean("isError", false)).isTrue();
            // and another client cannot ride the MCP session itself
            McpHttp bob = new McpHttp(endpoint, BOB);
            bob.sessionId = owner.sessionId;
            assertThat(bob.call("list_files", Map.of("session_id", id)).status()).isEqualTo(404);
        } finally {
            owner.result("close_session", Map.of("session_id", id));
        }
    }

    @Test
    void ending_the_mcp_session_closes_its_code_sessions() {
        McpHttp mcp = alice();
        int before = app.main.sessions().liveCount();
        mcp.result("create_session", Map.of());
        assertThat(app.main.sessions().liveCount()).isEqualTo(before + 1);
        assertThat(mcp.delete().status()).isEqualTo(200);
        assertThat(app.main.sessions().liveCount()).isEqualTo(before);
        assertThat(mcp.request("tools/list", Map.of()).status()).isEqualTo(404);
    }

    @Test
    void a_client_that_never_ends_its_mcp_sessions_loses_the_oldest_past_the_cap() {
        McpHttp oldest = new McpHttp(endpoint, BOB).initialize();
        for (int i = 0; i < McpSessions.MAX_PER_CLIENT; i++) {
            new McpHttp(endpoint, BOB).initialize();
        }
        assertThat(oldest.request("tools/list", Map.of()).status()).isEqualTo(404);
    }

    @Test
    void sessions_over_mcp_count_against_the_key_like_rest_sessions() {
        McpHttp mcp = alice();
        String a = mcp.result("create_session", Map.of()).object("structuredContent").string("session_id");
        String b = mcp.result("create_session", Map.of()).object("structuredContent").string("session_id");
        try {
            JsonObject third = mcp.result("create_session", Map.of());
            assertThat(third.optBoolean("isError", false)).isTrue();
            assertThat(text(third)).containsIgnoringCase("session").contains("retry after");
        } finally {
            mcp.result("close_session", Map.of("session_id", a));
            mcp.result("close_session", Map.of("session_id", b));
        }
    }

    @Test
    void files_go_up_and_come_back_as_text_or_image_and_bad_names_are_refused() {
        McpHttp mcp = alice();
        String id = mcp.result("create_session", Map.of()).object("structuredContent").string("session_id");
        try {
            String csv = Base64.getEncoder().encodeToString("a,b\n1,2\n".getBytes(StandardCharsets.UTF_8));
            mcp.result("upload_file", Map.of("session_id", id, "name", "data.csv", "content_base64", csv));
            assertThat(text(mcp.result("list_files", Map.of("session_id", id)))).contains("data.csv");
            assertThat(text(mcp.result("read_file", Map.of("session_id", id, "name", "data.csv")))).isEqualTo("a,b\n1,2\n\n");
            mcp.result("run_code", Map.of("session_id", id, "code", "open('blob.bin','wb').write(bytes(range(256)))"));
            JsonObject blob = mcp.result("read_file", Map.of("session_id", id, "name", "blob.bin"));
            assertThat(blob.objectList("content")).anySatisfy(c -> assertThat(c.string("type")).isEqualTo("resource"));
            for (String bad : new String[] {"../etc/passwd", "a/b", "", ".codeinterp-upload-x"}) {
                JsonObject refused = mcp.result("upload_file", Map.of("session_id", id, "name", bad, "content_base64", csv));
                assertThat(refused.optBoolean("isError", false)).as(bad).isTrue();
            }
            JsonObject notBase64 = mcp.result("upload_file", Map.of("session_id", id, "name", "x", "content_base64", "***"));
            assertThat(text(notBase64)).contains("base64");
            JsonObject tooBig = mcp.result("upload_file", Map.of("session_id", id, "name", "big",
                    "content_base64", "A".repeat(400_000)));
            assertThat(text(tooBig)).contains("limit");
        } finally {
            mcp.result("close_session", Map.of("session_id", id));
        }
    }

    @Test
    void hostile_input_gets_clear_errors_never_a_500() {
        McpHttp mcp = alice();
        McpHttp.Answer malformed = mcp.send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.last().object("error").integer("code")).isEqualTo(-32600);
        assertThat(malformed.body()).doesNotContain("stackTrace").doesNotContain("className");

        McpHttp.Answer unknown = mcp.call("rm_rf", Map.of());
        assertThat(unknown.last().object("error").integer("code")).isEqualTo(-32602);

        JsonObject wrongType = mcp.result("run_code", Map.of("code", 42));
        assertThat(wrongType.optBoolean("isError", false)).isTrue();
        JsonObject wrongTimeout = mcp.result("run_code", Map.of("code", "1", "timeout", "soon"));
        assertThat(wrongTimeout.optBoolean("isError", false)).isTrue();
        JsonObject language = mcp.result("run_code", Map.of("code", "1", "language", "r"));
        assertThat(text(language)).contains("/language: does not have a value in the enumeration");
        JsonObject hugeCode = mcp.result("run_code", Map.of("code", "#".repeat(100_000)));
        assertThat(text(hugeCode)).contains("code is larger than");
        JsonObject stranger = mcp.result("interrupt", Map.of("session_id", "s_" + "0".repeat(30)));
        assertThat(text(stranger)).contains("no such session");
        JsonObject missingPackage = mcp.result("run_code", Map.of("code", "print(1)", "packages", List.of("numpy", "no_such_module_xyz")));
        assertThat(text(missingPackage).strip()).isEqualTo("python package 'no_such_module_xyz' is not on this server's package allowlist, "
                + "so the cell did not run (ask the operator to add it)");

        McpHttp.Answer huge = MCP_exchange(mcp, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"run_code\","
                + "\"arguments\":{\"code\":\"" + "x".repeat(3 << 20) + "\"}}}");
        assertThat(huge == null ? "connection cut before the answer" : "status " + huge.status())
                .isIn("status 413", "connection cut before the answer");

        McpHttp.Answer notJsonRpc = mcp.send("[1, 2, 3]");
        assertThat(notJsonRpc.status()).isBetween(400, 499);
        assertThat(notJsonRpc.body()).doesNotContain("stackTrace");
        McpHttp.Answer noSession = new McpHttp(endpoint, ALICE).call("list_files", Map.of("session_id", "x"));
        assertThat(noSession.status()).isBetween(400, 404);
        assertThat(noSession.body()).doesNotContain("stackTrace");
        McpHttp.Answer foreignPage = McpHttp.exchange(mcp.base().header("Origin", "http://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}")).build());
        assertThat(foreignPage.status()).isEqualTo(403);
        // the server still serves
        assertThat(text(mcp.result("run_code", Map.of("code", "print('alive')")))).contains("alive");
    }

    /**
     * A body the server refuses from its Content-Length alone: it answers 413 and closes without
     * reading it, so a client still writing may see its connection cut before the answer (the JDK
     * client's Expect: 100-continue would avoid that, but hangs on a final answer instead of 100).
     * Either way the body is refused unread; null says the connection was cut.
     */
    private static McpHttp.Answer MCP_exchange(McpHttp mcp, String body) {
        HttpRequest request = mcp.base().POST(HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            return McpHttp.exchange(request);
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof java.io.IOException) {
                return null; // cut while sending: refused unread
            }
            throw e;
        }
    }
}
