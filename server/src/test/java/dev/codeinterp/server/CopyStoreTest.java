package dev.codeinterp.server;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.server.config.DatabaseSettings;
import dev.codeinterp.server.store.Database;
import dev.codeinterp.server.store.EventRepository;
import dev.codeinterp.server.store.McpSessionRepository;
import dev.codeinterp.server.store.NewEvent;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoredMcpSession;
import dev.codeinterp.server.store.StoredSession;
import dev.codeinterp.server.store.TestStores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code copy-store --to jdbc:postgresql://...}: an install's SQLite store, whole and checked, into an empty PostgreSQL database. */
class CopyStoreTest {
    @TempDir
    Path data;
    @TempDir
    Path targetDir;
    private DatabaseSettings target;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void needsPostgres() {
        assumeTrue(TestStores.postgres(), "needs the PostgreSQL of test.sh's second pass");
        target = TestStores.forDataDir(targetDir);
    }

    @Test
    void an_install_is_copied_whole_and_a_server_on_the_copy_numbers_on_where_it_left_off() {
        try (Database sqlite = Database.open(data.resolve("codeinterp.db"))) {
            SessionRepository sessions = new SessionRepository(sqlite);
            EventRepository events = new EventRepository(sqlite);
            for (int s = 0; s < 3; s++) {
                String id = "s" + s;
                sessions.insert(new StoredSession(id, "hash" + s, "runsc", s == 2, 1000L + s, s == 1 ? 2000L : null, "ws" + s, "key-" + s));
                for (int c = 0; c < 4 + s; c++) {
                    String cell = id + "-c" + c;
                    events.record(id, List.of(new NewEvent(cell, 1, new Event.Queued("print(" + c + ")", Language.PYTHON))));
                    events.record(id, List.of(new NewEvent(cell, 2, new Event.Started(c + 1)),
                            new NewEvent(cell, 3, new Event.Stream(StreamName.STDOUT, c + "\n")),
                            new NewEvent(cell, 4, new Event.Finished(Status.OK, (long) c + 1, 5L, 1L, 2048L))));
                }
            }
            McpSessionRepository mcp = new McpSessionRepository(sqlite);
            mcp.insert(new StoredMcpSession("n1." + "M".repeat(22), "key-0", "n1", "2025-06-18", "{}", "{\"name\":\"agent\"}", 1000L, 1500L,
                    List.of()));
            mcp.addCodeSession("n1." + "M".repeat(22), "s0");
            mcp.addCodeSession("n1." + "M".repeat(22), "s2");
        }

        assertThat(copy()).as(err.toString()).isZero();
        assertThat(out.toString()).contains("3 sessions, 15 cells, 60 events").doesNotContain("password");

        try (Database sqlite = Database.open(data.resolve("codeinterp.db")); Database pg = Database.open(target, data.resolve("unused.db"))) {
            EventRepository from = new EventRepository(sqlite);
            EventRepository to = new EventRepository(pg);
            for (int s = 0; s < 3; s++) {
                assertThat(to.after("s" + s, 0, 1000)).isEqualTo(from.after("s" + s, 0, 1000));
                assertThat(new SessionRepository(pg).find("s" + s)).isEqualTo(new SessionRepository(sqlite).find("s" + s));
            }
            // an MCP client goes on with its id on the copy, its sessions its own
            assertThat(new McpSessionRepository(pg).find("n1." + "M".repeat(22)))
                    .isEqualTo(new McpSessionRepository(sqlite).find("n1." + "M".repeat(22)))
                    .hasValueSatisfying(m -> assertThat(m.codeSessions()).containsExactly("s0", "s2"));
            List<SessionEvent> next = to.record("s2", List.of(new NewEvent("s2-c9", 9, new Event.Queued("1", Language.PYTHON))));
            assertThat(next.get(0).seq()).as("numbering goes on from the copied events").isEqualTo(25L);
        }
    }

    @Test
    void a_database_that_holds_a_store_already_is_refused_and_left_as_it_was() {
        try (Database sqlite = Database.open(data.resolve("codeinterp.db"))) {
            new SessionRepository(sqlite).insert(new StoredSession("only", "h", "runc", false, 1L, null, null, "k"));
        }
        assertThat(copy()).isZero();
        out.reset();
        assertThat(copy()).isEqualTo(2);
        assertThat(err.toString()).startsWith("codeinterp: ").contains("already holds a store").doesNotContain("Exception");
        try (Database pg = Database.open(target, data.resolve("unused.db"))) {
            int sessions = pg.read(ctx -> ctx.fetchCount(dev.codeinterp.server.store.generated.Tables.SESSIONS));
            assertThat(sessions).isEqualTo(1);
        }
    }

    @Test
    void a_database_with_tables_of_its_own_is_refused_untouched() throws Exception {
        try (Database sqlite = Database.open(data.resolve("codeinterp.db"))) {
            new SessionRepository(sqlite).insert(new StoredSession("only", "h", "runc", false, 1L, null, null, "k"));
        }
        try (var c = java.sql.DriverManager.getConnection(target.url(), target.user(), target.password()); var st = c.createStatement()) {
            st.execute("CREATE TABLE invoices (id int)");
        }
        assertThat(copy()).isEqualTo(2);
        assertThat(err.toString()).contains("is not empty (it holds invoices)");
    }

    @Test
    void an_install_without_a_store_is_said_so() {
        assertThat(copy()).isEqualTo(2);
        assertThat(err.toString()).contains("no SQLite store at " + data.resolve("codeinterp.db"));
    }

    private int copy() {
        Map<String, String> env = new HashMap<>();
        env.put("CODEINTERP_DATA_DIR", data.toString());
        env.put("CODEINTERP_DATABASE_USER", target.user());
        env.put("CODEINTERP_DATABASE_PASSWORD_FILE", System.getenv("TEST_POSTGRES_PASSWORD_FILE"));
        err.reset();
        return Commands.run(new String[] {"copy-store", "--to", target.url()}, env,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }
}
