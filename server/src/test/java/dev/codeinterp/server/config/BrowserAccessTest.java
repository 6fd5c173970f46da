package dev.codeinterp.server.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Host and Origin rules as a table: what a page, a rebinding attacker and curl each get. */
class BrowserAccessTest {
    private static final BrowserAccess LOOPBACK = BrowserAccess.parse("127.0.0.1", List.of(), List.of());
    private static final BrowserAccess TEAM = BrowserAccess.parse("127.0.0.1", List.of("interp.team.example", "gw.example:8443"),
            List.of("https://tools.team.example"));
    private static final BrowserAccess ANYWHERE = BrowserAccess.parse("0.0.0.0", List.of(), List.of());
    private static final BrowserAccess ANYWHERE_NAMED = BrowserAccess.parse("0.0.0.0", List.of("interp.team.example"), List.of());

    @ParameterizedTest(name = "on loopback, Host {0} is served: {1}")
    @CsvSource({
            "localhost:8080, true",
            "LOCALHOST:8080, true",
            "localhost, true",
            "127.0.0.1:8080, true",
            "127.0.0.1, true",
            "127.1.2.3:9, true",
            "[::1]:8080, true",
            "[::1], true",
            "[0:0:0:0:0:0:0:1]:80, true",
            "evil.example:8080, false",
            "evil.example, false",
            "localhost.evil.example:8080, false",
            "127.0.0.1.evil.example, false",
            "localhost., false",
            "128.0.0.1:8080, false",
            "127.0.0.256, false",
            "0.0.0.0:8080, false",
            "[::2]:8080, false",
            "[::ffff:7f00:1]x, false",
            "192.168.1.10:8080, false",
    })
    void a_server_on_loopback_answers_only_to_loopback_names(String host, boolean served) {
        assertThat(LOOPBACK.hostRefusal(host).isEmpty()).isEqualTo(served);
    }

    @ParameterizedTest(name = "with ALLOWED_HOSTS, Host {0} is served: {1}")
    @CsvSource({
            "interp.team.example, true",
            "interp.team.example:8080, true",
            "INTERP.team.example:443, true",
            "gw.example:8443, true",
            "gw.example:8444, false",
            "gw.example, false",
            "team.example, false",
            "evil.interp.team.example, false",
            "localhost:8080, true",
    })
    void allowed_hosts_name_more_and_a_port_when_given(String host, boolean served) {
        assertThat(TEAM.hostRefusal(host).isEmpty()).isEqualTo(served);
    }

    @Test
    void a_server_listening_elsewhere_checks_hosts_only_when_told_which() {
        assertThat(ANYWHERE.hostRefusal("whatever.example:8080")).isEmpty();
        assertThat(ANYWHERE_NAMED.hostRefusal("interp.team.example:8080")).isEmpty();
        assertThat(ANYWHERE_NAMED.hostRefusal("10.0.0.5:8080")).isPresent();
        assertThat(ANYWHERE_NAMED.hostRefusal("localhost:8080")).isEmpty();
    }

    @Test
    void a_refused_host_gets_a_reason_naming_the_setting() {
        assertThat(LOOPBACK.hostRefusal("evil.example:8080")).get().asString()
                .startsWith("host not allowed").contains("localhost");
        assertThat(TEAM.hostRefusal("evil.example:8080")).get().asString().contains("CODEINTERP_ALLOWED_HOSTS");
    }

    @ParameterizedTest(name = "Origin {0} with Host {1} may drive the server: {2}")
    @CsvSource({
            "http://127.0.0.1:8080, 127.0.0.1:8080, true",
            "http://localhost:8080, localhost:8080, true",
            "http://LOCALHOST:8080, localhost:8080, true",
            "https://interp.team.example, interp.team.example, true",
            "http://localhost:8080, 127.0.0.1:8080, false",
            "http://127.0.0.1:9999, 127.0.0.1:8080, false",
            "http://127.0.0.1, 127.0.0.1:8080, false",
            "http://evil.example, 127.0.0.1:8080, false",
            "null, 127.0.0.1:8080, false",
            "'', 127.0.0.1:8080, false",
            "http://127.0.0.1:8080/, 127.0.0.1:8080, false",
            "http://user@127.0.0.1:8080, 127.0.0.1:8080, false",
            "file://127.0.0.1:8080, 127.0.0.1:8080, false",
            "http://127.0.0.1:8080 x, 127.0.0.1:8080, false",
            "http://evil.example:8080, evil.example:8080, true",
    })
    void only_a_page_of_our_own_host_may_drive_the_server(String origin, String host, boolean allowed) {
        // the last row is DNS rebinding: same-origin to the browser, so the Host rule is what refuses it
        assertThat(LOOPBACK.originRefusal(origin, host).isEmpty()).isEqualTo(allowed);
    }

    @Test
    void a_request_without_an_origin_is_not_a_cross_site_page_and_passes() {
        assertThat(LOOPBACK.originRefusal(null, "127.0.0.1:8080")).isEmpty();
        assertThat(LOOPBACK.originRefusal(null, null)).isEmpty();
    }

    @Test
    void allowed_origins_name_pages_of_other_sites_exactly() {
        assertThat(TEAM.originRefusal("https://tools.team.example", "interp.team.example")).isEmpty();
        assertThat(TEAM.originRefusal("http://tools.team.example", "interp.team.example")).isPresent();
        assertThat(TEAM.originRefusal("https://tools.team.example:8443", "interp.team.example")).isPresent();
        assertThat(TEAM.originRefusal("https://interp.team.example", "interp.team.example")).isEmpty();
        assertThat(TEAM.originRefusal("https://evil.example", "interp.team.example")).get().asString()
                .startsWith("origin not allowed").contains("CODEINTERP_ALLOWED_ORIGINS");
    }

    @Test
    void a_typo_in_either_setting_fails_the_start() {
        assertThatThrownBy(() -> BrowserAccess.parse("127.0.0.1", List.of("http://team.example"), List.of()))
                .hasMessageContaining("CODEINTERP_ALLOWED_HOSTS");
        assertThatThrownBy(() -> BrowserAccess.parse("127.0.0.1", List.of("team.example/path"), List.of()))
                .hasMessageContaining("CODEINTERP_ALLOWED_HOSTS");
        assertThatThrownBy(() -> BrowserAccess.parse("127.0.0.1", List.of(), List.of("tools.team.example")))
                .hasMessageContaining("CODEINTERP_ALLOWED_ORIGINS");
        assertThatThrownBy(() -> BrowserAccess.parse("127.0.0.1", List.of(), List.of("https://tools.team.example/app")))
                .hasMessageContaining("CODEINTERP_ALLOWED_ORIGINS");
    }
}
