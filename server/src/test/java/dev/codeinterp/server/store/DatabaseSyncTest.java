package dev.codeinterp.server.store;

import dev.codeinterp.server.config.DatabaseSettings;
import dev.codeinterp.server.config.DatabaseSync;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code CODEINTERP_DATABASE_SYNC} reaches the connection every write is committed on, as the same
 * promise on both databases: by default a commit waits for no disk flush (SQLite {@code synchronous}
 * 1, PostgreSQL {@code synchronous_commit} off), with {@code full} it does.
 */
class DatabaseSyncTest {
    @TempDir
    Path dir;

    @Test
    void by_default_a_commit_is_the_databases_and_waits_for_no_disk_flush() {
        try (Database db = open(DatabaseSync.NORMAL)) {
            assertThat(onTheWritersConnection(db)).isEqualTo(TestStores.postgres() ? "off" : "1");
        }
    }

    @Test
    void with_full_every_commit_is_on_disk_before_its_output_goes_on() {
        try (Database db = open(DatabaseSync.FULL)) {
            assertThat(onTheWritersConnection(db)).isEqualTo(TestStores.postgres() ? "on" : "2");
        }
    }

    @Test
    void options_written_in_the_url_are_kept_and_a_synchronous_commit_there_wins() {
        assumeTrue(TestStores.postgres(), "PostgreSQL's driver options (test.sh's second pass)");
        DatabaseSettings s = TestStores.forDataDir(dir);
        String options = "options=-c%20statement_timeout%3D43210%20-c%20synchronous_commit%3Dlocal";
        String url = s.url() + (s.url().contains("?") ? "&" : "?") + options;
        try (Database db = Database.open(new DatabaseSettings(url, s.user(), s.password(), DatabaseSync.NORMAL), dir.resolve("unused.db"))) {
            assertThat(onTheWritersConnection(db)).isEqualTo("local");
            String timeout = db.read(ctx -> String.valueOf(ctx.fetchValue("SHOW statement_timeout")));
            assertThat(timeout).isEqualTo("43210ms");
        }
    }

    private Database open(DatabaseSync sync) {
        DatabaseSettings s = TestStores.forDataDir(dir);
        return Database.open(new DatabaseSettings(s.url(), s.user(), s.password(), sync), dir.resolve("store.db"));
    }

    private static String onTheWritersConnection(Database db) {
        AtomicReference<String> value = new AtomicReference<>();
        String query = TestStores.postgres() ? "SHOW synchronous_commit" : "PRAGMA synchronous";
        db.writer().write(ctx -> value.set(String.valueOf(ctx.fetchValue(query))));
        return value.get();
    }
}
