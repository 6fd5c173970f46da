package dev.codeinterp.server.api;

import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpRequest;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Anonymous clients are counted by address. Behind a trusted front door (TRUSTED_PROXIES) the address
 * is the one it forwards for; a client that is not the front door cannot pick its own by writing the header.
 */
class ClientBehindProxyTest {
    @Test
    @Timeout(120)
    void behind_a_trusted_proxy_each_forwarded_address_has_its_own_quota() {
        try (TestApp app = TestApp.start("runc", Map.of("POOL_SIZE", "0", "MAX_SESSIONS_PER_CLIENT", "1", "TRUSTED_PROXIES", "127.0.0.1"))) {
            assertThat(create(app, "198.51.100.1")).isEqualTo(201);
            assertThat(create(app, "198.51.100.2")).isEqualTo(201);
            assertThat(create(app, "198.51.100.1")).isEqualTo(429);
            assertThat(create(app, "6.6.6.6, 198.51.100.2")).as("what the client wrote left of the proxy's hop").isEqualTo(429);
        }
    }

    @Test
    @Timeout(120)
    void a_forwarded_for_header_from_a_peer_that_is_no_trusted_proxy_changes_nothing() {
        try (TestApp app = TestApp.start("runc", Map.of("POOL_SIZE", "0", "MAX_SESSIONS_PER_CLIENT", "1"))) {
            assertThat(create(app, "198.51.100.1")).isEqualTo(201);
            assertThat(create(app, "198.51.100.2")).isEqualTo(429);
        }
    }

    private static int create(TestApp app, String forwardedFor) {
        return app.send(app.request("/api/v1/sessions", null).header("X-Forwarded-For", forwardedFor)
                .POST(HttpRequest.BodyPublishers.noBody()).build()).status();
    }
}
