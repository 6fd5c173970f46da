package dev.codeinterp.server.mcp;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The ids clients see name the node that began the session and carry the SDK's 16 random bytes; anything else is no id of ours. */
class McpSessionIdsTest {
    private final McpSessionIds ids = new McpSessionIds("n2");

    @Test
    void a_uuid_goes_out_as_the_node_and_its_sixteen_bytes() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            String out = ids.external(UUID.randomUUID().toString());
            assertThat(out).matches("n2\\.[A-Za-z0-9_-]{22}");
            assertThat(McpSessionIds.wellFormed(out)).isTrue();
            assertThat(seen.add(out)).isTrue();
        }
    }

    @Test
    void a_bare_uuid_and_garbage_are_not_ids_of_ours() {
        String out = ids.external(UUID.randomUUID().toString());
        assertThat(McpSessionIds.wellFormed("n3" + out.substring(2))).isTrue(); // another node's: the store says whose
        assertThat(McpSessionIds.wellFormed(UUID.randomUUID().toString())).isFalse();
        assertThat(McpSessionIds.wellFormed("n2." + "*".repeat(22))).isFalse();
        assertThat(McpSessionIds.wellFormed("n2.short")).isFalse();
        assertThat(McpSessionIds.wellFormed("N2" + out.substring(2))).isFalse();
        assertThat(McpSessionIds.wellFormed(null)).isFalse();
    }
}
