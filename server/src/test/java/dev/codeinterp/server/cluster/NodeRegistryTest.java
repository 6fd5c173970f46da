package dev.codeinterp.server.cluster;

import dev.codeinterp.server.config.NodeSettings;
import dev.codeinterp.server.store.Database;
import dev.codeinterp.server.store.NodeRepository;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoredNode;
import dev.codeinterp.server.store.StoredSession;
import dev.codeinterp.server.store.TestStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Nodes sharing one store (SQLite's file, or PostgreSQL in test.sh's second pass), each a registry
 * over its own {@link Database} as separate servers have: who may hold an id, and how a silent
 * node is found lost, with its sessions, by exactly one of the others.
 */
class NodeRegistryTest {
    private static final Duration LOSS_AFTER = Duration.ofSeconds(2);

    @TempDir
    Path dir;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    @Test
    void a_second_server_claiming_a_live_nodes_id_is_refused_and_the_same_data_directory_takes_it_back() {
        NodeRegistry first = node("n1", dir.resolve("data-a"));
        first.start(() -> 0, lost -> { }, () -> { });

        NodeRegistry impostor = node("n1", dir.resolve("data-b"));
        assertThatThrownBy(() -> impostor.start(() -> 0, lost -> { }, () -> { }))
                .isInstanceOf(NodeIdTakenException.class)
                .hasMessageContaining("'n1'").hasMessageContaining("another data directory").hasMessageContaining("CODEINTERP_NODE_ID");

        // the same data directory is the same node restarted (after kill -9 its heartbeat is still fresh)
        NodeRegistry restarted = node("n1", dir.resolve("data-a"));
        restarted.start(() -> 0, lost -> { }, () -> { });
        assertThat(restarted.nodes()).extracting(Node::id, Node::state).containsExactly(
                org.assertj.core.groups.Tuple.tuple("n1", StoredNode.ACTIVE));
    }

    @Test
    @Timeout(60)
    void a_node_unheard_past_the_loss_timeout_is_marked_lost_with_its_open_sessions_by_exactly_one_other_node() throws Exception {
        Database store = store();
        long longAgo = System.currentTimeMillis() - 60_000;
        new NodeRepository(store).register(new StoredNode("n2", "http://10.0.0.2:8080", "runsc", 100, 0, StoredNode.ACTIVE,
                longAgo, longAgo), "key-of-n2");
        SessionRepository sessions = new SessionRepository(store);
        sessions.insert(new StoredSession("n2.open", "h", "runsc", false, 1L, null, null, "k", "n2"));
        sessions.insert(new StoredSession("n2.closed", "h", "runsc", false, 1L, null, null, "k", "n2"));
        sessions.markClosed("n2.closed", 2L);
        sessions.insert(new StoredSession("n1.mine", "h", "runsc", false, 1L, null, null, "k", "n1"));

        List<String> lostSeen = new CopyOnWriteArrayList<>();
        NodeRegistry n1 = node("n1", dir.resolve("data-1"));
        NodeRegistry n3 = node("n3", dir.resolve("data-3"));
        n1.start(() -> 1, lostSeen::add, () -> { });
        n3.start(() -> 0, lostSeen::add, () -> { });

        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (lostSeen.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        Thread.sleep(LOSS_AFTER.toMillis()); // a few more heartbeats of both: neither marks it again
        assertThat(lostSeen).containsExactly("n2");
        assertThat(new NodeRepository(store).find("n2").orElseThrow().state()).isEqualTo(StoredNode.LOST);
        assertThat(sessions.find("n2.open").orElseThrow().lost()).contains("n2").contains("was lost");
        assertThat(sessions.find("n2.closed").orElseThrow().lost()).isNull();
        assertThat(sessions.find("n1.mine").orElseThrow().lost()).isNull();
        assertThat(n1.nodes()).extracting(Node::id).contains("n1", "n2", "n3");
    }

    @Test
    @Timeout(60)
    void a_node_judges_others_only_after_a_whole_loss_timeout_of_its_own_heartbeats_so_a_store_outage_loses_no_node()
            throws Exception {
        Database store = store();
        long longAgo = System.currentTimeMillis() - 60_000;
        // n2 looks silent, as every node does to the first one back after the store was out of reach
        new NodeRepository(store).register(new StoredNode("n2", "http://10.0.0.2:8080", "runsc", 100, 0, StoredNode.ACTIVE,
                longAgo, longAgo), "key-of-n2");
        List<String> lostSeen = new CopyOnWriteArrayList<>();
        NodeRegistry n1 = node("n1", dir.resolve("data-1"));
        n1.start(() -> 0, lostSeen::add, () -> { }); // beats every 400 ms

        Thread.sleep(LOSS_AFTER.toMillis() / 2);
        assertThat(lostSeen).as("judged before it had been beating for a loss timeout").isEmpty();
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (lostSeen.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(lostSeen).containsExactly("n2"); // still silent after this node's own view is whole: lost
    }

    @Test
    @Timeout(60)
    void a_node_that_comes_back_after_being_marked_lost_owns_nothing_it_had() throws Exception {
        Database store = store();
        NodeRegistry first = node("n2", dir.resolve("data-2"));
        first.start(() -> 0, lost -> { }, () -> { });
        new SessionRepository(store).insert(new StoredSession("n2.a", "h", "runsc", false, 1L, null, "ws", "k", "n2"));
        AtomicInteger disowned = new AtomicInteger();
        NodeRegistry back = node("n2", dir.resolve("data-2"));
        back.start(() -> 1, lost -> { }, disowned::incrementAndGet);
        // the others marked it lost while it was unheard (as if its store had been out of reach)
        assertThat(new NodeRepository(store).markLost("n2", Long.MAX_VALUE, "lost in the test")).isTrue();

        back.beat();
        assertThat(disowned.get()).isEqualTo(1);
        assertThat(new NodeRepository(store).find("n2").orElseThrow().state()).isEqualTo(StoredNode.ACTIVE);
        SessionRepository mine = new SessionRepository(store, "n2");
        assertThat(mine.openWithSandbox()).isEmpty();
        assertThat(mine.openWorkspaces()).isEmpty();
        assertThat(mine.find("n2.a").orElseThrow().lost()).isEqualTo("lost in the test");
    }

    @Test
    void rows_written_before_nodes_existed_become_the_first_nodes() {
        Database store = store();
        new SessionRepository(store).insert(new StoredSession("old", "h", "runc", false, 1L, null, "ws", "k"));
        node("solo", dir.resolve("data-solo")).start(() -> 0, lost -> { }, () -> { });
        assertThat(new SessionRepository(store).find("old").orElseThrow().node()).isEqualTo("solo");
        assertThat(new SessionRepository(store, "solo").openWorkspaces()).containsExactly("ws");
    }

    @Test
    void a_data_directory_keeps_the_node_id_it_was_first_given() {
        Path data = dir.resolve("data-named");
        NodeIdentity first = NodeIdentity.of(new NodeSettings(null, null, LOSS_AFTER), data);
        NodeIdentity again = NodeIdentity.of(new NodeSettings(null, null, LOSS_AFTER), data);
        assertThat(first.id()).matches(NodeSettings.ID_PATTERN).isEqualTo(again.id());
        assertThat(first.key()).isEqualTo(again.key());
        assertThat(NodeIdentity.of(new NodeSettings(null, null, LOSS_AFTER), dir.resolve("other")).key()).isNotEqualTo(first.key());
    }

    @Test
    void a_node_id_that_cannot_go_into_a_session_id_or_a_header_is_refused() {
        for (String bad : List.of("N1", "n1.x", "-n1", "n1/../x", "a".repeat(33), "n 1", "n1\r\nX-Evil: 1")) {
            assertThatThrownBy(() -> new NodeSettings(bad, null, LOSS_AFTER)).hasMessageContaining("NODE_ID");
        }
        assertThatThrownBy(() -> new NodeSettings("n1", "ftp://x", LOSS_AFTER)).hasMessageContaining("NODE_URL");
        assertThatThrownBy(() -> new NodeSettings("n1", null, Duration.ofMillis(500))).hasMessageContaining("NODE_LOSS_AFTER");
    }

    /** One server's view of the shared store: its own Database, as a separate process would have. */
    private NodeRegistry node(String id, Path dataDir) {
        NodeSettings settings = new NodeSettings(id, null, LOSS_AFTER);
        NodeRegistry registry = new NodeRegistry(new NodeRepository(store()), NodeIdentity.of(settings, dataDir), settings,
                () -> "http://127.0.0.1:1", "runsc", 100);
        open.add(registry);
        return registry;
    }

    private Database store() {
        Database db = TestStores.open(dir);
        open.add(db);
        return db;
    }
}
