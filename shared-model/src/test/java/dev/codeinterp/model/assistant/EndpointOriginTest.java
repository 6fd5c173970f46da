package dev.codeinterp.model.assistant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which endpoint origins may enter the relay page's CSP; the browser and the server both ask this. */
class EndpointOriginTest {
    @Test
    void plain_http_and_https_origins_are_accepted() {
        assertThat(EndpointOrigin.valid("http://localhost:11434")).isTrue();
        assertThat(EndpointOrigin.valid("https://api.example.com")).isTrue();
        assertThat(EndpointOrigin.valid("http://127.0.0.1:8080")).isTrue();
        assertThat(EndpointOrigin.valid("http://[::1]:65535")).isTrue();
        assertThat(EndpointOrigin.valid("https://xn--bcher-kva.example")).isTrue();
    }

    @Test
    void anything_that_could_widen_the_policy_or_break_the_header_is_refused() {
        for (String hostile : new String[] {null, "", "*", "https://*", "http://*.example.com", "'self'", "'unsafe-eval'",
                "http://a.example; connect-src *", "http://a.example http://b.example", "http://a.example,http://b.example",
                "http://a.example/v1", "http://a.example/", "http://a.example?x", "http://u:p@a.example", "http://a.example:65536",
                "http://a.example:", "javascript:alert(1)", "ws://a.example", "data:,x", "HTTP://A.EXAMPLE",
                "http://a.example\r\nX: y", "http://a..example", "http://-a.example", "http://[::1", "http://a.example\u0000"}) {
            assertThat(EndpointOrigin.valid(hostile)).as(String.valueOf(hostile)).isFalse();
        }
    }
}
