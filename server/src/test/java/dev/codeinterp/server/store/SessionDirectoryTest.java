package dev.codeinterp.server.store;

import dev.codeinterp.model.Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client's sessions as the store lists them (SQLite, or PostgreSQL in test.sh's second pass): open
 * ones only, the most recently active first by their newest event, a page at a time without gaps or
 * repeats; titles kept and copied by a fork.
 */
class SessionDirectoryTest {
    @TempDir
    Path dir;
    private Database db;
    private SessionRepository sessions;
    private SessionDirectory directory;

    @BeforeEach
    void open() {
        db = TestStores.open(dir);
        sessions = new SessionRepository(db);
        directory = new SessionDirectory(db);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private void session(String id, String client, long createdAt, boolean oneShot, String node) {
        sessions.insert(new StoredSession(id, "hash", "runc", oneShot, createdAt, null, null, client, node));
    }

    private void eventAt(String id, long at) {
        new EventRepository(db).record(id, List.of(new NewEvent("c-" + id + at, at, new Event.Queued("1"))));
    }

    @Test
    void a_clients_open_sessions_are_listed_by_their_latest_activity_and_nothing_else_is() {
        session("a", "key:ann", 100, false, null);
        session("b", "key:ann", 200, false, null);
        session("c", "key:ann", 300, false, null);
        session("closed", "key:ann", 400, false, null);
        session("once", "key:ann", 500, true, null);
        session("bobs", "key:bob", 600, false, null);
        eventAt("a", 1000); // a was created first and used last
        eventAt("b", 250);
        sessions.markSuspended("c", null, 0, 700, 800); // last used at 700 before it was suspended
        sessions.markClosed("closed", 900);
        List<SessionDirectory.Listed> listed = directory.owned("key:ann", 10, null);
        assertThat(listed).extracting(SessionDirectory.Listed::id).containsExactly("a", "c", "b");
        assertThat(listed).extracting(SessionDirectory.Listed::lastActive).containsExactly(1000L, 700L, 250L);
        assertThat(listed.get(1).suspended()).isTrue();
        assertThat(directory.owned("key:bob", 10, null)).extracting(SessionDirectory.Listed::id).containsExactly("bobs");
        assertThat(directory.owned("key:nobody", 10, null)).isEmpty();
    }

    @Test
    void pages_follow_each_other_without_gaps_or_repeats_even_when_activity_ties() {
        for (int i = 0; i < 7; i++) {
            session("s" + i, "key:ann", i < 4 ? 100 : 100 + i, false, null); // four share one time
        }
        List<String> seen = new ArrayList<>();
        SessionDirectory.Cursor after = null;
        for (int page = 0; page < 10; page++) {
            List<SessionDirectory.Listed> rows = directory.owned("key:ann", 3, after);
            rows.forEach(r -> seen.add(r.id()));
            if (rows.size() < 3) {
                break;
            }
            SessionDirectory.Listed last = rows.get(rows.size() - 1);
            after = new SessionDirectory.Cursor(last.lastActive(), last.id());
        }
        assertThat(seen).containsExactly("s6", "s5", "s4", "s3", "s2", "s1", "s0");
    }

    @Test
    void a_session_lost_with_its_node_is_listed_as_lost() {
        new NodeRepository(db).register(new StoredNode("n2", "http://10.0.0.2:8080", "runsc", 10, 0, StoredNode.ACTIVE, 1L, 1L), "k");
        session("n2.x", "key:ann", 100, false, "n2");
        new NodeRepository(db).markLost("n2", Long.MAX_VALUE, "its node was lost");
        assertThat(directory.owned("key:ann", 10, null)).singleElement()
                .satisfies(r -> assertThat(r.lost()).isEqualTo("its node was lost"));
    }

    @Test
    void a_title_is_kept_cleared_and_copied_by_a_fork() {
        session("src", "key:ann", 100, false, null);
        assertThat(directory.title("src")).isEmpty();
        directory.setTitle("src", "Sales \uD83D\uDE00 <b>");
        assertThat(directory.title("src")).hasValue("Sales \uD83D\uDE00 <b>");
        new SessionForks(db).insert(new StoredSession("fork", "h2", "runc", false, 200, null, null, "key:ann"),
                SessionQuota.NONE, "src", null, 0, () -> "cell-" + System.nanoTime());
        assertThat(directory.title("fork")).hasValue("Sales \uD83D\uDE00 <b>");
        directory.setTitle("src", null);
        assertThat(directory.title("src")).isEmpty();
        assertThat(directory.title("fork")).hasValue("Sales \uD83D\uDE00 <b>");
        assertThat(directory.owned("key:ann", 10, null)).extracting(SessionDirectory.Listed::title).containsExactly("Sales \uD83D\uDE00 <b>", null);
    }

    @Test
    void a_title_of_two_hundred_characters_outside_the_basic_plane_fits_the_column() {
        session("wide", "key:ann", 100, false, null);
        String wide = "\uD83D\uDE00".repeat(200); // 400 UTF-16 units, 800 bytes
        directory.setTitle("wide", wide);
        assertThat(directory.title("wide")).hasValue(wide);
    }
}
