package dev.codeinterp.server.api;

import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Local mode's assistant relay page over real HTTP: its CSP lets it connect to the configured
 * endpoint's origin and nowhere else, runs only its own inline script, and a hostile endpoint
 * value (anything that could widen the policy or break out of the header) gets a 400 and no page.
 * No sandbox is started (pool size 0).
 */
class AssistantRelayPageTest {
    static TestApp app;

    @BeforeAll
    static void start() throws IOException {
        app = TestApp.start("runc", Map.of("POOL_SIZE", "0"), Files.createTempDirectory("codeinterp-relay"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static TestApp.Response relay(String endpoint) {
        return app.get("/local/assistant-relay.html?endpoint=" + URLEncoder.encode(endpoint, StandardCharsets.UTF_8), null);
    }

    @Test
    void the_relay_may_connect_only_to_the_configured_endpoint_and_run_only_its_own_script() throws Exception {
        TestApp.Response r = relay("http://127.0.0.1:11434");
        String origin = "http://127.0.0.1:" + app.main.port();
        assertThat(r.status()).isEqualTo(200);
        assertThat(header(r, "Content-Type")).startsWith("text/html");
        assertThat(header(r, "Cross-Origin-Embedder-Policy")).isEqualTo("require-corp");
        assertThat(header(r, "X-Frame-Options")).isEqualTo("SAMEORIGIN");
        assertThat(header(r, "Access-Control-Allow-Origin")).isEmpty();
        Map<String, String> csp = directives(header(r, "Content-Security-Policy"));
        assertThat(csp.get("default-src")).isEqualTo("'none'");
        assertThat(csp.get("connect-src")).isEqualTo("http://127.0.0.1:11434");
        assertThat(csp.get("frame-ancestors")).isEqualTo(origin);
        assertThat(csp.get("form-action")).isEqualTo("'none'");
        String body = r.body();
        String script = body.substring(body.indexOf("<script>") + 8, body.indexOf("</script>"));
        String hash = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(script.getBytes(StandardCharsets.UTF_8)));
        assertThat(csp.get("script-src")).isEqualTo("'sha256-" + hash + "'");
        assertThat(header(r, "Content-Security-Policy")).doesNotContain("unsafe", "*", "'self'");

        assertThat(directives(header(relay("https://api.example.com"), "Content-Security-Policy")).get("connect-src"))
                .isEqualTo("https://api.example.com");
        assertThat(directives(header(relay("http://[::1]:8080"), "Content-Security-Policy")).get("connect-src"))
                .isEqualTo("http://[::1]:8080");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "",
            "*",
            "https://*",
            "http://*.example.com",
            "http://evil.example; connect-src *",
            "http://a.example http://b.example",
            "http://a.example,http://b.example",
            "'self'",
            "'unsafe-inline'",
            "http://a.example'",
            "http://a.example\"",
            "http://a.example/v1",
            "http://a.example/",
            "http://a.example?x=1",
            "http://a.example#x",
            "http://user:pass@a.example",
            "http://a.example:99999",
            "http://a.example:",
            "javascript:alert(1)",
            "data:text/html,x",
            "blob:http://a.example/x",
            "ws://a.example",
            "file:///etc/passwd",
            "//a.example",
            "a.example",
            "HTTP://A.EXAMPLE",
            "http://a.example\r\nSet-Cookie: x=1",
            "http://a.example\tb",
            "http://a..example",
            "http://-a.example",
            "http://[::1",
    })
    void a_hostile_endpoint_is_refused_with_400_and_no_page(String endpoint) {
        TestApp.Response r = relay(endpoint);
        assertThat(r.status()).as(endpoint).isEqualTo(400);
        assertThat(r.body()).doesNotContain("<script>");
        // the error carries the app's own policy, nothing of the value
        assertThat(directives(header(r, "Content-Security-Policy")).get("connect-src")).isEqualTo("'self'");
    }

    @Test
    void without_an_endpoint_there_is_no_relay() {
        assertThat(app.get("/local/assistant-relay.html", null).status()).isEqualTo(400);
    }

    private static String header(TestApp.Response r, String name) {
        return r.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(e -> e.getValue().get(0)).findFirst().orElse("");
    }

    private static Map<String, String> directives(String csp) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String part : csp.split(";")) {
            String[] words = part.strip().split(" ", 2);
            out.put(words[0], words.length > 1 ? words[1] : "");
        }
        return out;
    }
}
