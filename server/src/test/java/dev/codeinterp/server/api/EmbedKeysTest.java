package dev.codeinterp.server.api;

import dev.codeinterp.model.Limit;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.session.Tokens;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Publishable embed keys against the real server (runc): such a key sits in a host page for anyone
 * to read, so it opens sessions only from the embed widget on its own pages, within its own quota,
 * and is worth nothing anywhere else in the API.
 */
class EmbedKeysTest {
    private static final String SHOP_KEY = "ci_pk_shop-" + Tokens.newToken();
    private static final String BLOG_KEY = "ci_pk_blog-" + Tokens.newToken();
    private static final String SHOP = "https://shop.example";
    private static TestApp app;

    @BeforeAll
    static void start() throws Exception {
        Path keys = Files.createTempFile("keys", "");
        Files.writeString(keys, "shop " + Tokens.hash(SHOP_KEY) + " 1 embed=" + SHOP + ",https://www.shop.example\n"
                // a key for a page the server does not let frame the widget at all
                + "blog " + Tokens.hash(BLOG_KEY) + " embed=https://blog.example\n");
        app = TestApp.start("runc", Map.of("API_KEYS", keys.toString(), "EMBED_ORIGINS", SHOP + ",https://www.shop.example,https://blog.example:8443",
                "POOL_SIZE", "0"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static TestApp.Response createFrom(String page, String key) {
        HttpRequest.Builder b = app.request("/api/v1/sessions", key).POST(HttpRequest.BodyPublishers.noBody());
        if (page != null) {
            b.header("X-CodeInterp-Embed-Origin", page);
        }
        return app.send(b.build());
    }

    @Test
    void the_widget_on_a_page_of_the_keys_origins_gets_a_session_within_the_keys_quota() {
        TestApp.Response first = createFrom(SHOP, SHOP_KEY);
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        TestApp.SessionRef s = new TestApp.SessionRef(first.json().string("id"), first.json().string("token"));
        try {
            TestApp.Response second = createFrom("https://www.shop.example", SHOP_KEY);
            assertThat(second.status()).as(second.body()).isEqualTo(429);
            assertThat(WireCodec.decodeApiError(second.body()).limit()).isEqualTo(Limit.SESSIONS_PER_CLIENT);
            // the session itself is guarded by its token, as any other
            TestApp.Response run = app.post("/api/v1/sessions/" + s.id() + "/execute", "{\"code\":\"6*7\"}", s.token());
            assertThat(run.body()).contains("42");
        } finally {
            app.delete("/api/v1/sessions/" + s.id(), s.token());
        }
    }

    @Test
    void the_key_on_another_page_or_without_the_widgets_page_is_refused_and_opens_nothing() {
        for (String page : new String[] {"https://evil.example", "https://shop.example.evil.example", "http://shop.example",
                "https://shop.example:8443", "null", "", "https://SHOP.example"}) {
            TestApp.Response r = createFrom(page, SHOP_KEY);
            assertThat(r.status()).as(page + ": " + r.body()).isEqualTo(403);
            assertThat(WireCodec.decodeApiError(r.body()).error()).contains("embed");
        }
        assertThat(createFrom(null, SHOP_KEY).status()).isEqualTo(403);
        // on its own origin, but one the server does not let frame the widget
        assertThat(createFrom("https://blog.example", BLOG_KEY).status()).isEqualTo(403);
        assertThat(app.get("/healthz", null).json().number("sessions")).isZero();
    }

    @Test
    void a_publishable_key_is_worth_nothing_for_one_shot_runs_mcp_or_metrics() {
        TestApp.Response once = app.post("/api/v1/execute", "{\"code\":\"1\"}", SHOP_KEY);
        assertThat(once.status()).as(once.body()).isEqualTo(401);
        assertThat(WireCodec.decodeApiError(once.body()).error()).contains("publishable embed key");
        assertThat(app.get("/metrics", SHOP_KEY).status()).isEqualTo(401);
    }
}
