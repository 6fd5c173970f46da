package dev.codeinterp.server.api;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.metrics.PrometheusText;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a web page of another site, or one that renamed itself to 127.0.0.1, gets from the default
 * install (loopback, no keys): nothing runs, nothing opens, nothing changes, and the reason comes
 * back as JSON; curl without an Origin and the app's own pages go on working.
 */
class ForeignPagesTest {
    private static final String EVIL = "http://evil.example";
    private static final String TEAM_TOOLS = "https://tools.team.example";
    private static TestApp app;

    @BeforeAll
    static void start() {
        app = TestApp.start("runc", Map.of("POOL_SIZE", "1", "ALLOWED_ORIGINS", TEAM_TOOLS));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void a_cross_site_simple_request_runs_no_code_and_opens_no_session() {
        double executions = executions();
        long sessions = openSessions();
        for (String type : new String[]{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"}) {
            TestApp.Response run = app.send(app.request("/api/v1/execute", null).header("Origin", EVIL).header("Content-Type", type)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"code\":\"print('pwned')\"}")).build());
            assertRefusedAsForeign(run, "origin not allowed");
            TestApp.Response open = app.send(app.request("/api/v1/sessions", null).header("Origin", EVIL).header("Content-Type", type)
                    .POST(HttpRequest.BodyPublishers.ofString("x=1")).build());
            assertRefusedAsForeign(open, "origin not allowed");
        }
        // a sandboxed frame or a file: page sends "null": foreign too
        assertRefusedAsForeign(app.send(app.request("/api/v1/execute", null).header("Origin", "null")
                .POST(HttpRequest.BodyPublishers.ofString("{\"code\":\"1\"}")).build()), "origin not allowed");
        assertThat(executions()).isEqualTo(executions);
        assertThat(openSessions()).isEqualTo(sessions);
    }

    @Test
    void a_foreign_page_cannot_upload_or_delete_a_sessions_files_even_holding_its_token() {
        TestApp.SessionRef s = app.createSession();
        assertThat(app.putFile(s, "kept.txt", "mine".getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(201);
        String files = "/api/v1/sessions/" + s.id() + "/files";
        assertRefusedAsForeign(app.send(app.request(files + "/kept.txt", s.token()).header("Origin", EVIL)
                .PUT(HttpRequest.BodyPublishers.ofString("theirs")).build()), "origin not allowed");
        assertRefusedAsForeign(app.send(app.request(files + "/kept.txt", s.token()).header("Origin", EVIL).DELETE().build()),
                "origin not allowed");
        assertRefusedAsForeign(app.send(app.request(files, s.token()).header("Origin", EVIL)
                .header("Content-Type", "multipart/form-data; boundary=b")
                .POST(HttpRequest.BodyPublishers.ofString("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"new.txt\"\r\n\r\n"
                        + "x\r\n--b--\r\n")).build()), "origin not allowed");
        assertRefusedAsForeign(app.send(app.request("/api/v1/sessions/" + s.id() + "/execute", s.token()).header("Origin", EVIL)
                .POST(HttpRequest.BodyPublishers.ofString("{\"code\":\"open('kept.txt','w').write('theirs')\"}")).build()),
                "origin not allowed");
        assertRefusedAsForeign(app.send(app.request("/api/v1/sessions/" + s.id(), s.token()).header("Origin", EVIL).DELETE().build()),
                "origin not allowed");

        TestApp.Response listed = app.get(files, s.token());
        assertThat(listed.body()).contains("kept.txt").doesNotContain("new.txt");
        assertThat(app.get(files + "/kept.txt", s.token()).body()).isEqualTo("mine");
    }

    @Test
    void a_page_that_rebinds_its_name_to_this_machine_is_refused_on_every_route() {
        long sessions = openSessions();
        for (String request : new String[]{
                "GET / HTTP/1.1\r\nHost: evil.example:" + app.main.port() + "\r\nConnection: close\r\n\r\n",
                "GET /healthz HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
                // same-origin to the browser, so it carries a "matching" Origin: the Host rule is what stops it
                "POST /api/v1/sessions HTTP/1.1\r\nHost: evil.example:" + app.main.port() + "\r\nOrigin: http://evil.example:"
                        + app.main.port() + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                "POST /mcp HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
                        + "Connection: close\r\n\r\n{}"}) {
            String answer = app.raw(request);
            assertThat(answer).as(request).startsWith("HTTP/1.1 403").contains("application/json").contains("host not allowed");
        }
        assertThat(openSessions()).isEqualTo(sessions);
        assertThat(app.raw("GET /healthz HTTP/1.1\r\nHost: localhost:" + app.main.port() + "\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 200");
        assertThat(app.raw("GET /healthz HTTP/1.1\r\nHost: [::1]:" + app.main.port() + "\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 200");
    }

    @Test
    void the_apps_own_pages_and_clients_without_an_origin_keep_working() {
        String own = "http://127.0.0.1:" + app.main.port();
        TestApp.Response run = app.send(app.request("/api/v1/execute", null).header("Origin", own).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"code\":\"6*7\"}")).build());
        assertThat(run.status()).as(run.body()).isEqualTo(200);
        assertThat(app.executeOnce("6*7", null).objectList("results")).isNotEmpty(); // curl -d: no Origin at all
        // pages and assets stay readable by our own opaque-origin frames (local mode's runtime sends Origin: null)
        assertThat(app.send(app.request("/healthz", null).header("Origin", "null").GET().build()).status()).isEqualTo(200);
    }

    @Test
    void the_websocket_and_mcp_apply_the_same_rule() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), "http://127.0.0.1:" + app.main.port())) {
            assertThat(ws).isNotNull();
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WsClient.connect(app.wsUri(s.id()), EVIL))
                .hasStackTraceContaining("403");
        TestApp.Response mcp = app.send(app.request("/mcp", null).header("Origin", EVIL).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}")).build());
        assertRefusedAsForeign(mcp, "origin not allowed");
    }

    @Test
    void a_page_of_an_allowed_origin_drives_the_api_and_reads_its_answers() {
        TestApp.Response run = app.send(app.request("/api/v1/execute", null).header("Origin", TEAM_TOOLS)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"code\":\"6*7\"}")).build());
        assertThat(run.status()).as(run.body()).isEqualTo(200);
        assertThat(run.headers().get("access-control-allow-origin")).containsExactly(TEAM_TOOLS);
        assertThat(run.headers().get("vary")).anyMatch(v -> v.contains("Origin"));
        assertThat(run.headers()).doesNotContainKey("access-control-allow-credentials");
        // the browser's preflight for a call with the session's bearer token
        String preflight = app.raw("OPTIONS /api/v1/sessions/x/files/a.txt HTTP/1.1\r\nHost: 127.0.0.1:" + app.main.port()
                + "\r\nOrigin: " + TEAM_TOOLS + "\r\nAccess-Control-Request-Method: PUT\r\n"
                + "Access-Control-Request-Headers: authorization\r\nConnection: close\r\n\r\n");
        assertThat(preflight).startsWith("HTTP/1.1 204").containsIgnoringCase("Access-Control-Allow-Origin: " + TEAM_TOOLS)
                .containsIgnoringCase("Access-Control-Allow-Headers: Authorization");
        // our own pages need no CORS; a foreign page's preflight is refused like its request
        TestApp.Response own = app.send(app.request("/api/v1/execute", null).header("Origin", "http://127.0.0.1:" + app.main.port())
                .POST(HttpRequest.BodyPublishers.ofString("{\"code\":\"1\"}")).build());
        assertThat(own.headers()).doesNotContainKey("access-control-allow-origin");
        assertThat(app.raw("OPTIONS /api/v1/execute HTTP/1.1\r\nHost: 127.0.0.1:" + app.main.port() + "\r\nOrigin: " + EVIL
                + "\r\nAccess-Control-Request-Method: POST\r\nConnection: close\r\n\r\n")).startsWith("HTTP/1.1 403")
                .doesNotContainIgnoringCase("Access-Control-Allow-Origin");
    }

    private static void assertRefusedAsForeign(TestApp.Response r, String reason) {
        assertThat(r.status()).as(r.body()).isEqualTo(403);
        assertThat(r.headers().get("content-type").get(0)).startsWith("application/json");
        assertThat(JsonObject.parse(r.body()).string("error")).startsWith(reason);
    }

    private static double executions() {
        return PrometheusText.parse(app.get("/metrics", null).body()).sum("codeinterp_executions_total");
    }

    private static long openSessions() {
        return (long) app.get("/healthz", null).json().object("use").number("sessions");
    }
}
