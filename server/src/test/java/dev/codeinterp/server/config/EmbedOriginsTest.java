package dev.codeinterp.server.config;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EmbedOriginsTest {
    @Test
    void by_default_only_loopback_pages_on_any_port_may_embed_the_widget() {
        assertThat(Settings.fromEnvironment(Map.of()).embedOrigins().sources()).isEqualTo(EmbedOrigins.LOOPBACK);
        assertThat(EmbedOrigins.LOOPBACK).allMatch(s -> s.contains("://localhost:") || s.contains("://127.0.0.1:"));
    }

    @Test
    void configured_origins_are_taken_as_given_and_anything_else_fails_the_start() {
        assertThat(EmbedOrigins.parse(List.of("https://Docs.Example.org", "http://localhost:5173")).csp())
                .isEqualTo("https://docs.example.org http://localhost:5173");
        for (String bad : List.of("*", "https://*.example.org", "docs.example.org", "https://example.org/path",
                "https://example.org; script-src *", "javascript:alert(1)", "'self'", "https://example.org:99999x")) {
            assertThatThrownBy(() -> EmbedOrigins.parse(List.of(bad))).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
