package dev.codeinterp.server.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.codeinterp.server.config.DatabaseSettings;
import dev.codeinterp.server.config.DatabaseSync;
import org.flywaydb.core.Flyway;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Function;

/**
 * The store: the SQLite file under the data directory (the default), or a PostgreSQL database
 * ({@link DatabaseSettings}). The same repositories and migrations serve both; only the dialect
 * jOOQ renders and how connections are had differ. Migrated by Flyway at open; every write goes
 * through the one {@link StoreWriter}; reads use their own connections (SQLite: a fresh one each,
 * which WAL lets run beside the writer; PostgreSQL: a small pool).
 */
public final class Database implements AutoCloseable {
    private static final Settings JOOQ_SETTINGS = new Settings()
            .withRenderSchema(false)
            .withRenderQuotedNames(RenderQuotedNames.EXPLICIT_DEFAULT_UNQUOTED);

    private final DataSource reads;
    private final SQLDialect dialect;
    private final StoreWriter writer;
    private final AutoCloseable pool;

    private Database(DataSource reads, DataSource writes, SQLDialect dialect, AutoCloseable pool) {
        this.reads = reads;
        this.dialect = dialect;
        this.pool = pool;
        this.writer = new StoreWriter(writes, dialect, JOOQ_SETTINGS);
    }

    /** The database {@code settings} name, or the SQLite file {@code sqliteFile} when they name none. */
    public static Database open(DatabaseSettings settings, Path sqliteFile) {
        return settings.postgres() ? PostgresConnections.open(settings) : open(sqliteFile, settings.sync());
    }

    /** The embedded store: one SQLite file, WAL journal, a busy timeout. */
    public static Database open(Path file) {
        return open(file, DatabaseSync.NORMAL);
    }

    /** The embedded store, its commits flushed to disk as {@code sync} says. */
    public static Database open(Path file, DatabaseSync sync) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot create the data directory for " + file, e);
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        // in WAL mode NORMAL flushes at checkpoints only: a commit survives a crash of this process, not a power loss
        config.setSynchronous(switch (sync) {
            case NORMAL -> SQLiteConfig.SynchronousMode.NORMAL;
            case FULL -> SQLiteConfig.SynchronousMode.FULL;
        });
        config.setBusyTimeout(5000);
        config.enforceForeignKeys(true);
        SQLiteDataSource ds = new SQLiteDataSource(config);
        ds.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
        migrate(ds);
        return new Database(ds, ds, SQLDialect.SQLITE, () -> { });
    }

    /** A PostgreSQL store over {@code reads} (a pool) and {@code writes} (the writer's own connections), migrated. */
    static Database postgres(HikariDataSource reads, DataSource writes) {
        try {
            migrateOnce(reads);
            return new Database(reads, writes, SQLDialect.POSTGRES, reads);
        } catch (RuntimeException e) {
            reads.close();
            throw e;
        }
    }

    private static void migrate(DataSource ds) {
        Flyway.configure().dataSource(ds).locations("classpath:db/migration").load().migrate();
    }

    /**
     * Several servers may start at once against one PostgreSQL database: the first to take this
     * advisory lock migrates, the others wait for it and then find nothing left to do, so each
     * migration runs exactly once. (Flyway locks too, but only once its history table exists;
     * creating that table is the race.) The lock is the session's, so it goes with the connection.
     */
    private static void migrateOnce(DataSource ds) {
        try (Connection lock = ds.getConnection(); var st = lock.createStatement()) {
            st.execute("SELECT pg_advisory_lock(" + MIGRATION_LOCK + ")");
            try {
                migrate(ds);
            } finally {
                st.execute("SELECT pg_advisory_unlock(" + MIGRATION_LOCK + ")");
            }
        } catch (SQLException | org.flywaydb.core.api.FlywayException e) {
            throw new StoreUnavailableException("cannot migrate the database: " + PostgresConnections.reason(e), e);
        }
    }

    /** Any fixed number will do, as long as nothing else in the database uses it: "codeinterp". */
    private static final long MIGRATION_LOCK = 0x636f6465696e74L;

    static HikariConfig poolConfig() {
        HikariConfig config = new HikariConfig();
        config.setPoolName("store-reads");
        config.setMaximumPoolSize(8);
        // failures to connect are reported by the probe before the pool exists, and after that each read says so itself
        config.setInitializationFailTimeout(-1);
        config.setConnectionTimeout(10_000);
        return config;
    }

    /** Which SQL the repositories speak here. */
    public SQLDialect dialect() {
        return dialect;
    }

    /** Runs a read on a connection of its own. */
    public <T> T read(Function<DSLContext, T> query) {
        try (var connection = reads.getConnection()) {
            return query.apply(DSL.using(connection, dialect, JOOQ_SETTINGS));
        } catch (SQLException e) {
            throw new StoreException("database read failed", e);
        }
    }

    public StoreWriter writer() {
        return writer;
    }

    @Override
    public void close() {
        try {
            writer.close();
        } finally {
            try {
                pool.close();
            } catch (Exception ignored) {
                // closing anyway
            }
        }
    }
}
