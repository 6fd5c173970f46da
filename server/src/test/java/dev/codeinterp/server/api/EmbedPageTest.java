package dev.codeinterp.server.api;

import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Who may frame what: the embed widget's page ({@code /embed}) may be framed by the configured
 * origins only, the app's own pages by nobody. No sandbox is started (pool size 0).
 */
class EmbedPageTest {
    static TestApp app;

    @BeforeAll
    static void start() {
        app = TestApp.start("runc", Map.of("POOL_SIZE", "0",
                "EMBED_ORIGINS", "https://docs.example.org, http://localhost:*"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void the_widget_page_may_be_framed_by_the_configured_origins_only_and_knows_them() {
        TestApp.Response r = app.get("/embed", null);
        assertThat(r.status()).isEqualTo(200);
        String csp = header(r, "Content-Security-Policy");
        assertThat(csp).contains("frame-ancestors https://docs.example.org http://localhost:*")
                .doesNotContain("frame-ancestors 'none'").contains("script-src 'self' 'wasm-unsafe-eval'")
                .doesNotContain("unsafe-inline");
        assertThat(header(r, "X-Frame-Options")).isEmpty();
        assertThat(header(r, "Cross-Origin-Resource-Policy")).isEqualTo("cross-origin");
        assertThat(r.body()).contains("\"origins\":[\"https://docs.example.org\",\"http://localhost:*\"]")
                .doesNotContain("{{");
    }

    @Test
    void the_app_and_its_other_pages_stay_unframeable() {
        for (String path : new String[] {"/", "/index.html", "/embed.html", "/healthz", "/embed.js"}) {
            TestApp.Response r = app.get(path, null);
            assertThat(header(r, "Content-Security-Policy")).as(path).contains("frame-ancestors 'none'");
            assertThat(header(r, "X-Frame-Options")).as(path).isEqualTo("DENY");
        }
    }

    @Test
    void the_helper_script_may_be_loaded_by_other_sites() {
        TestApp.Response r = app.get("/embed.js", null);
        assertThat(r.status()).isEqualTo(200);
        assertThat(header(r, "Content-Type")).startsWith("text/javascript");
        assertThat(header(r, "Cross-Origin-Resource-Policy")).isEqualTo("cross-origin");
        assertThat(r.body()).contains("window.CodeInterp");
    }

    @Test
    void output_frames_may_sit_inside_the_widget() {
        String csp = header(app.get("/frame.html", null), "Content-Security-Policy");
        assertThat(csp).contains("frame-ancestors 'self' https://docs.example.org http://localhost:*");
        // of our scripts, only plotly.js (for Plotly outputs); still no network, no other script
        assertThat(csp).startsWith("default-src 'none'; ").containsPattern(
                "script-src 'unsafe-inline' http://[^/ ]+/js/vendor/plotly/plotly\\.min\\.js; ");
    }

    private static String header(TestApp.Response r, String name) {
        return r.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(e -> e.getValue().get(0)).findFirst().orElse("");
    }
}
