package dev.codeinterp.server.api;

import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every page the server sends carries the policy {@link ContentSecurityPolicy} names for it, to the
 * letter: no page writes its own. The pure builder's behaviour is at the end.
 */
class ServedPoliciesTest {
    private static final String EMBED_ORIGINS = "https://docs.example.org http://localhost:*";
    private static TestApp app;
    private static String origin;

    @BeforeAll
    static void start() {
        app = TestApp.start("runc", Map.of("POOL_SIZE", "1", "EMBED_ORIGINS", EMBED_ORIGINS.replace(' ', ',')));
        origin = "http://127.0.0.1:" + app.main.port();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void the_apps_pages_and_api_answers_carry_the_apps_policy() {
        for (String path : List.of("/", "/index.html", "/embed.js", "/healthz", "/api/v1/openapi.json")) {
            assertThat(csp(app.get(path, null))).as(path).isEqualTo(ContentSecurityPolicy.APP.toString());
        }
    }

    @Test
    void the_embed_widget_output_frame_and_assistant_relay_carry_theirs() throws Exception {
        assertThat(csp(app.get("/embed", null))).isEqualTo(ContentSecurityPolicy.embed(EMBED_ORIGINS).toString());
        assertThat(csp(app.get("/frame.html", null))).isEqualTo(ContentSecurityPolicy.outputFrame(origin, EMBED_ORIGINS).toString());
        TestApp.Response relay = app.get("/local/assistant-relay.html?endpoint=http%3A%2F%2F127.0.0.1%3A11434", null);
        String script = relay.body().substring(relay.body().indexOf("<script>") + 8, relay.body().indexOf("</script>"));
        String hash = "'sha256-" + Base64.getEncoder().encodeToString(
                MessageDigest.getInstance("SHA-256").digest(script.getBytes(StandardCharsets.UTF_8))) + "'";
        assertThat(csp(relay)).isEqualTo(ContentSecurityPolicy.assistantRelay(hash, "http://127.0.0.1:11434", origin).toString());
    }

    @Test
    void the_local_runtime_page_is_the_builders_runtime_policy_over_its_own_asset_paths() {
        String served = csp(app.get("/local/runtime.html", null));
        Map<String, List<String>> d = directives(served);
        List<String> scripts = d.get("script-src").stream().filter(s -> !s.equals("'wasm-unsafe-eval'")).toList();
        assertThat(scripts).allMatch(s -> s.startsWith(origin + "/") || s.equals("blob:"));
        assertThat(served).isEqualTo(ContentSecurityPolicy.localRuntime(origin, EMBED_ORIGINS, scripts, d.get("connect-src")).toString());
    }

    @Test
    void downloads_and_errors_carry_theirs() {
        TestApp.SessionRef s = app.createSession();
        app.putFile(s, "page.html", "<script>alert(1)</script>".getBytes(StandardCharsets.UTF_8));
        assertThat(csp(app.get("/api/v1/sessions/" + s.id() + "/files/page.html", s.token())))
                .isEqualTo(ContentSecurityPolicy.DOWNLOAD.toString());
        assertThat(csp(app.get("/api/v1/sessions/" + s.id() + "/notebook.ipynb", s.token())))
                .isEqualTo(ContentSecurityPolicy.DOWNLOAD.toString());
        // Jetty's own refusal of a malformed request, and the Host rule's refusal
        assertThat(app.raw("GET /%00 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
                .contains("Content-Security-Policy: " + ContentSecurityPolicy.ERROR);
        assertThat(app.raw("GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 403").contains("Content-Security-Policy: " + ContentSecurityPolicy.ERROR);
    }

    @Test
    void a_policy_is_built_from_directives_each_source_once() {
        ContentSecurityPolicy p = ContentSecurityPolicy.none().with("img-src", "data:").plus("img-src", "blob:", "data:");
        assertThat(p).hasToString("default-src 'none'; img-src data: blob:");
        assertThat(p.with("default-src", "'self'")).as("a directive keeps its place").hasToString("default-src 'self'; img-src data: blob:");
        assertThat(ContentSecurityPolicy.DOWNLOAD).hasToString("sandbox; default-src 'none'");
        assertThat(ContentSecurityPolicy.embed("https://a.example").toString())
                .contains("frame-ancestors https://a.example").contains("connect-src 'self' blob: https://a.example")
                .doesNotContain("frame-ancestors 'none'");
    }

    private static String csp(TestApp.Response r) {
        return r.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("Content-Security-Policy"))
                .map(e -> e.getValue().get(0)).findFirst().orElse("(none)");
    }

    private static Map<String, List<String>> directives(String csp) {
        Map<String, List<String>> out = new java.util.LinkedHashMap<>();
        for (String part : csp.split("; ")) {
            String[] words = part.split(" ");
            out.put(words[0], Arrays.asList(words).subList(1, words.length));
        }
        return out;
    }
}
