package dev.codeinterp.server.store;

import org.flywaydb.core.Flyway;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * The SQLite file under the data directory: migrated by Flyway at open, WAL journal, a busy
 * timeout, and every write through the one {@link StoreWriter}. Reads use their own connections,
 * which WAL lets run beside the writer.
 */
public final class Database implements AutoCloseable {
    private final SQLiteDataSource dataSource;
    private final StoreWriter writer;
    private final Settings jooqSettings = new Settings()
            .withRenderSchema(false)
            .withRenderQuotedNames(RenderQuotedNames.EXPLICIT_DEFAULT_UNQUOTED);

    private Database(SQLiteDataSource dataSource) {
        this.dataSource = dataSource;
        this.writer = new StoreWriter(dataSource, jooqSettings);
    }

    public static Database open(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot create the data directory for " + file, e);
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(5000);
        config.enforceForeignKeys(true);
        SQLiteDataSource ds = new SQLiteDataSource(config);
        ds.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
        Flyway.configure().dataSource(ds).locations("classpath:db/migration").load().migrate();
        return new Database(ds);
    }

    /** Runs a read on a fresh connection. */
    public <T> T read(Function<DSLContext, T> query) {
        try (var connection = dataSource.getConnection()) {
            return query.apply(DSL.using(connection, SQLDialect.SQLITE, jooqSettings));
        } catch (java.sql.SQLException e) {
            throw new StoreException("database read failed", e);
        }
    }

    public StoreWriter writer() {
        return writer;
    }

    @Override
    public void close() {
        writer.close();
    }
}
