package dev.codeinterp.server.session;

import dev.codeinterp.server.config.NodeSettings;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** One session-id format, and the front door's rules (HAProxy's template, its config script) held to it. */
class SessionIdTest {
    private static final Path CLUSTER = Path.of("..", "scripts", "cluster");
    private static final String R = "Qk3tZ_-9aB0cD1eF2gH3iJ"; // 22 base64url characters

    /** Ids every rule must agree on, the node hint's edge cases first. */
    private static final List<String> IDS = List.of(
            "n2." + R, "a." + R, "0." + R, "node-7." + R, "a".repeat(32) + "." + R,
            R,
            "a".repeat(33) + "." + R, "-n2." + R, "N2." + R, "n_2." + R, "n.2." + R, "n2" + R.substring(1), "." + R,
            "n2." + R.substring(1), "n2." + R + "x", "n2." + R.replace('Q', '*'), "n2." + R + "/files", "", "n2.", "n2 ." + R);
    private static final List<String> NODES = List.of(
            "n2", "a", "0", "node-7", "a".repeat(32), "a".repeat(33), "-n2", "N2", "n_2", "n.2", "", "n2 ", "é");

    @Test
    void a_new_id_names_its_node_and_reads_back_as_itself() {
        SessionId id = SessionId.newOn("n2");
        assertThat(id.toString()).startsWith("n2.").hasSize(25);
        assertThat(SessionId.parse(id.toString())).contains(id);
        assertThat(id.startedOn("n2")).isTrue();
        assertThat(id.startedOn("n3")).isFalse();
        SessionId unnamed = SessionId.newOn(null);
        assertThat(unnamed.node()).isNull();
        assertThat(SessionId.parse(unnamed.toString())).contains(unnamed);
        assertThat(unnamed.startedOn(null)).isFalse();
    }

    @Test
    void an_mcp_sessions_uuid_is_its_sixteen_bytes() {
        UUID uuid = UUID.fromString("1b4e28ba-2fa1-11d2-883f-0016d3cca427");
        byte[] bytes = ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
                .putLong(uuid.getLeastSignificantBits()).array();
        assertThat(SessionId.of("n2", bytes).toString()).isEqualTo("n2.G04oui-hEdKIPwAW08ykJw");
    }

    @Test
    void a_path_is_read_up_to_its_first_slash() {
        assertThat(SessionId.leading("n2." + R + "/files/a.txt")).contains(new SessionId("n2", R));
        assertThat(SessionId.leading("n2." + R)).contains(new SessionId("n2", R));
        assertThat(SessionId.leading("")).isEmpty();
        assertThat(SessionId.leading("../etc/passwd")).isEmpty();
    }

    @Test
    void what_is_not_an_id_is_refused_whole() {
        assertThat(SessionId.parse(null)).isEmpty();
        for (String bad : List.of("a".repeat(33) + "." + R, "N2." + R, "n2." + R + "x", "", "n2.")) {
            assertThat(SessionId.parse(bad)).as(bad).isEmpty();
        }
    }

    @Test
    void haproxys_node_hint_rule_accepts_exactly_the_ids_with_a_node_hint() throws IOException {
        Pattern haproxy = ruleIn("haproxy.cfg.tmpl", "set-var\\(txn\\.node\\) .* -m reg (\\S+) }");
        for (String id : IDS) {
            boolean routed = SessionId.parse(id).map(s -> s.node() != null).orElse(false);
            assertThat(haproxy.matcher(id).find()).as("HAProxy's rule on '%s'", id).isEqualTo(routed);
        }
    }

    @Test
    void the_config_script_takes_exactly_the_node_ids_the_server_takes() throws IOException {
        Pattern bash = ruleIn("haproxy-config.sh", "\\[\\[ \"\\$id\" =~ (\\S+) ]]");
        for (String node : NODES) {
            assertThat(bash.matcher(node).find()).as("the script on '%s'", node).isEqualTo(node.matches(NodeSettings.ID_PATTERN));
        }
    }

    /** The regular expression {@code around} captures in {@code file} of scripts/cluster/, compiled as Java reads it. */
    private static Pattern ruleIn(String file, String around) throws IOException {
        Matcher rule = Pattern.compile(around).matcher(Files.readString(CLUSTER.resolve(file)));
        assertThat(rule.find()).as("the rule in %s", file).isTrue();
        return Pattern.compile(rule.group(1));
    }
}
