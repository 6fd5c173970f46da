package dev.codeinterp.server.api;

import dev.codeinterp.model.rest.SessionCreated;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A title lives in the store: a fork starts with it, and it is there after the server restarts
 * (gVisor, which can copy interpreters). A server without keys has no one to list sessions for.
 */
class SessionTitleKeptTest {

    private static String title(TestApp app, String id, String token) {
        return WireCodec.decodeSessionState(app.get("/api/v1/sessions/" + id, token).body()).title();
    }

    @Test
    void a_title_is_copied_by_fork_and_survives_a_restart() throws Exception {
        Path dataDir = Files.createTempDirectory("codeinterp-titles");
        TestApp.SessionRef s;
        SessionCreated fork;
        TestApp first = TestApp.start("runsc", Map.of("POOL_SIZE", "0"), dataDir);
        try {
            s = first.createSession();
            first.execute(s, "x = 1", null);
            TestApp.Response set = first.send(first.request("/api/v1/sessions/" + s.id(), s.token())
                    .header("Content-Type", "application/json")
                    .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"title\":\"Quarterly <numbers>\"}")).build());
            assertThat(set.status()).as(set.body()).isEqualTo(200);
            TestApp.Response forked = first.post("/api/v1/sessions/" + s.id() + "/fork", null, s.token());
            assertThat(forked.status()).as(forked.body()).isEqualTo(201);
            fork = WireCodec.decodeSessionCreated(forked.body());
            assertThat(title(first, fork.id(), fork.token())).isEqualTo("Quarterly <numbers>");
        } finally {
            first.stop();
        }
        try (TestApp next = TestApp.start("runsc", Map.of("POOL_SIZE", "0"), dataDir)) {
            assertThat(title(next, s.id(), s.token())).isEqualTo("Quarterly <numbers>");
            assertThat(title(next, fork.id(), fork.token())).isEqualTo("Quarterly <numbers>");
            TestApp.Response list = next.get("/api/v1/sessions", s.token());
            assertThat(list.status()).isEqualTo(404);
            assertThat(WireCodec.decodeApiError(list.body()).error()).contains("without API keys", "no identity to list");
            next.delete("/api/v1/sessions/" + s.id(), s.token());
            next.delete("/api/v1/sessions/" + fork.id(), fork.token());
        }
    }
}
