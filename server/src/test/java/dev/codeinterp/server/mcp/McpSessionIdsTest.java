package dev.codeinterp.server.mcp;

import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The SDK's UUIDs and the node-named ids clients see map one to one; what is not this node's maps to nothing. */
class McpSessionIdsTest {
    private final McpSessionIds ids = new McpSessionIds("n2");

    @Test
    void a_uuid_goes_out_as_the_node_and_its_sixteen_bytes_and_comes_back_the_same() {
        for (int i = 0; i < 100; i++) {
            String uuid = UUID.randomUUID().toString();
            String out = ids.external(uuid);
            assertThat(out).matches("n2\\.[A-Za-z0-9_-]{22}");
            assertThat(ids.internal(out)).isEqualTo(uuid);
        }
    }

    @Test
    void another_nodes_id_a_bare_uuid_and_garbage_name_no_session_here() {
        String out = ids.external(UUID.randomUUID().toString());
        assertThat(new McpSessionIds("n20").internal(out)).isNull();
        assertThat(ids.internal("n3" + out.substring(2))).isNull();
        assertThat(ids.internal(UUID.randomUUID().toString())).isNull();
        assertThat(ids.internal("n2." + "*".repeat(22))).isNull();
        assertThat(ids.internal("n2.short")).isNull();
        assertThat(ids.internal(null)).isNull();
    }
}
