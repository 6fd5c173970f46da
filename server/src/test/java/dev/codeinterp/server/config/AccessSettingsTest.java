package dev.codeinterp.server.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The server never runs open to the network by accident, and a bad keys file stops the start with a reason. */
class AccessSettingsTest {
    private static final String HASH = "a".repeat(64);

    @Test
    void by_default_it_listens_on_loopback_only() {
        assertThat(Settings.fromEnvironment(Map.of()).host()).isEqualTo("127.0.0.1");
    }

    @Test
    void a_public_address_without_keys_refuses_to_start_and_says_why() {
        for (String host : new String[] {"0.0.0.0", "192.0.2.7", "::", "example.org"}) {
            assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("CODEINTERP_HOST", host)))
                    .as(host).hasMessageContaining("CODEINTERP_API_KEYS").hasMessageContaining("ALLOW_ANONYMOUS");
        }
    }

    @Test
    void loopback_names_need_no_keys() {
        for (String host : new String[] {"localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"}) {
            assertThat(Settings.fromEnvironment(Map.of("CODEINTERP_HOST", host)).keysRequired()).as(host).isFalse();
        }
    }

    @Test
    void a_public_address_starts_with_keys_or_an_explicit_anonymous_opt_in(@TempDir Path dir) throws IOException {
        Path keys = Files.writeString(dir.resolve("keys"), "# team\nalice " + HASH + "\nbob sha256:" + "B".repeat(64) + " 3\n");
        Settings withKeys = Settings.fromEnvironment(Map.of("CODEINTERP_HOST", "0.0.0.0", "CODEINTERP_API_KEYS", keys.toString()));
        assertThat(withKeys.keysRequired()).isTrue();
        assertThat(withKeys.apiKeys()).extracting(ApiKey::name).containsExactly("alice", "bob");
        assertThat(withKeys.apiKeys().get(1).maxSessions()).isEqualTo(3);
        assertThat(withKeys.apiKeys().get(1).sha256Hex()).isEqualTo("b".repeat(64));
        assertThat(Settings.fromEnvironment(Map.of("CODEINTERP_HOST", "0.0.0.0", "CODEINTERP_ALLOW_ANONYMOUS", "true"))
                .keysRequired()).isFalse();
    }

    @Test
    void a_keys_file_line_with_embed_origins_is_a_publishable_key_for_those_pages(@TempDir Path dir) throws IOException {
        Path keys = Files.writeString(dir.resolve("keys"), "shop " + HASH + " 5 embed=https://Shop.example,http://127.0.0.1:*\nteam " + HASH.replace('a', 'b') + "\n");
        Settings s = Settings.fromEnvironment(Map.of("CODEINTERP_API_KEYS", keys.toString()));
        assertThat(s.apiKeys().get(0).publishable()).isTrue();
        assertThat(s.apiKeys().get(0).embedOrigins()).containsExactly("https://shop.example", "http://127.0.0.1:*");
        assertThat(s.apiKeys().get(0).maxSessions()).isEqualTo(5);
        assertThat(s.apiKeys().get(1).publishable()).isFalse();
    }

    @Test
    void a_keys_file_that_holds_a_raw_key_or_junk_is_refused_with_its_line(@TempDir Path dir) throws IOException {
        Map<String, String> bad = Map.ofEntries(
                Map.entry("alice ci_thisIsARawKeyNotAHash\n", "SHA-256"),
                Map.entry("alice " + HASH + "\nalice " + HASH + "\n", "twice"),
                Map.entry("alice\n", "expected"),
                Map.entry("alice " + HASH + " 0\n", "max_sessions"),
                Map.entry("ali\u202ece " + HASH + "\n", "name"),
                Map.entry("# only a comment\n", "no key"),
                Map.entry("shop " + HASH + " embed=\n", "embed= needs"),
                Map.entry("shop " + HASH + " embed=https://shop.example,\n", "embed= needs"),
                Map.entry("shop " + HASH + " embed=https://*.example\n", "not an origin"),
                Map.entry("shop " + HASH + " embed=https://shop.example/path\n", "not an origin"),
                Map.entry("shop " + HASH + " 2 3\n", "expected"));
        int i = 0;
        for (Map.Entry<String, String> e : bad.entrySet()) {
            Path keys = Files.writeString(dir.resolve("keys" + i++), e.getKey());
            assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("CODEINTERP_API_KEYS", keys.toString())))
                    .as(e.getKey()).hasMessageContaining(e.getValue());
        }
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("CODEINTERP_API_KEYS", dir.resolve("missing").toString())))
                .hasMessageContaining("cannot read");
    }
}
