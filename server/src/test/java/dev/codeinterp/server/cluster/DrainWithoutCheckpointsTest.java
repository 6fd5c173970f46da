package dev.codeinterp.server.cluster;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Under runc no interpreter can be checkpointed: a drained node's sessions move with their files, and their next cell says the variables are gone. */
class DrainWithoutCheckpointsTest {
    @Test
    @Timeout(180)
    void a_runc_session_moves_with_its_files_and_its_next_cell_says_its_variables_stayed_behind() throws Exception {
        try (TwoNodes nodes = TwoNodes.onPostgres("drain-runc", "runc", Map.of("POOL_SIZE", "0"))) {
            TestApp.SessionRef s = nodes.n1.createSession();
            nodes.n1.execute(s, "x = 1\nopen('kept.txt', 'w').write('still here')", null);

            var result = nodes.n1.main.drain(Duration.ofMinutes(2));

            assertThat(result.moved()).isEqualTo(1);
            JsonObject read = nodes.n2.execute(s, "open('kept.txt').read()", null);
            assertThat(read.objectList("results").get(0).string("text/plain")).isEqualTo("'still here'");
            assertThat(nodes.n2.execute(s, "x", null).string("status")).isEqualTo("error");
            JsonObject history = nodes.n2.get("/api/v1/sessions/" + s.id() + "/events", s.token()).json();
            assertThat(history.objectList("events")).anySatisfy(e -> {
                assertThat(e.string("type")).isEqualTo("restarted");
                assertThat(e.string("reason")).contains("moved to another node when node n1 was drained").contains("runc");
            });
            TestApp.assertOneFinishedPerCell(history);
        }
    }
}
