package dev.codeinterp.server.config;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Who the client is behind a front door: X-Forwarded-For is believed only from a trusted proxy, and only as far as trusted hops reach. */
class TrustedProxiesTest {
    private static final TrustedProxies PROXIES = TrustedProxies.parse(List.of("10.250.0.0/16", "127.0.0.1", "fd00::/8"));

    @ParameterizedTest(name = "from {0} with X-Forwarded-For [{1}]: {2}")
    @CsvSource(delimiter = '|', value = {
            // peer           | X-Forwarded-For (';' between headers)  | the client
            "203.0.113.9      |                                        | 203.0.113.9",
            "203.0.113.9      | 198.51.100.1                           | 203.0.113.9",    // not a proxy of ours: its header is the client's own words
            "10.250.1.1       | 198.51.100.1                           | 198.51.100.1",
            "10.250.1.1       | 6.6.6.6, 198.51.100.1                  | 198.51.100.1",   // what the client wrote stays left of what HAProxy added
            "10.250.1.1       | 198.51.100.1, 10.250.2.1               | 198.51.100.1",   // two trusted hops
            "10.250.1.1       | 6.6.6.6;198.51.100.1                   | 198.51.100.1",   // two headers read as one list
            "10.250.1.1       | 10.250.3.1                             | 10.250.3.1",     // every hop trusted: the leftmost
            "10.250.1.1       | evil.example, 198.51.100.1             | 198.51.100.1",
            "10.250.1.1       | 198.51.100.1:4242                      | 10.250.1.1",     // not an address: believed no further
            "10.250.1.1       | 999.1.1.1                              | 10.250.1.1",     // not an address (and never a DNS lookup)
            "10.250.1.1       | localhost                              | 10.250.1.1",
            "127.0.0.1        | 2001:db8::7                            | 2001:db8::7",
            "fd12::1          | 198.51.100.1                           | 198.51.100.1",
            "10.251.0.1       | 198.51.100.1                           | 10.251.0.1",     // outside the /16
    })
    void the_client_is_the_first_untrusted_hop_from_the_right(String peer, String forwardedFor, String client) {
        List<String> headers = forwardedFor == null ? List.of() : Arrays.asList(forwardedFor.split(";"));
        assertThat(PROXIES.client(peer, headers)).isEqualTo(client);
    }

    @Test
    void without_trusted_proxies_the_header_is_never_believed() {
        assertThat(TrustedProxies.NONE.client("127.0.0.1", List.of("198.51.100.1"))).isEqualTo("127.0.0.1");
    }

    @Test
    void a_setting_that_is_not_an_address_or_range_is_refused_at_start() {
        for (String bad : List.of("haproxy.internal", "10.0.0.0/33", "10.0.0.0/x", "300.0.0.1", "")) {
            assertThatThrownBy(() -> TrustedProxies.parse(List.of(bad))).hasMessageContaining("TRUSTED_PROXIES");
        }
    }
}
