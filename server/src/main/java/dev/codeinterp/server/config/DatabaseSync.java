package dev.codeinterp.server.config;

import java.util.Locale;

/**
 * How far a commit has gone when the output it holds is sent on ({@code CODEINTERP_DATABASE_SYNC}).
 * One choice for both stores, so the product makes one promise whichever database it runs on.
 */
public enum DatabaseSync {
    /**
     * The commit is in the database's hands, not yet on disk: a crash of this server loses nothing it
     * sent; a power loss (or, on PostgreSQL, a crash of the database) can lose the last moments, up to
     * ~0.6 s with PostgreSQL's default {@code wal_writer_delay}. SQLite {@code synchronous=NORMAL} in
     * WAL mode; PostgreSQL {@code synchronous_commit=off} on the server's connections.
     */
    NORMAL,
    /**
     * The commit is on disk before its output is sent on: SQLite {@code synchronous=FULL}; on
     * PostgreSQL the database's own {@code synchronous_commit} (on unless its operator chose otherwise,
     * which also waits for synchronous standbys).
     */
    FULL;

    static DatabaseSync parse(String value) {
        try {
            return valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("CODEINTERP_DATABASE_SYNC must be normal or full, got " + value);
        }
    }
}
