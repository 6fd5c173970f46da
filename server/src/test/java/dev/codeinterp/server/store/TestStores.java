package dev.codeinterp.server.store;

import dev.codeinterp.server.config.DatabaseSettings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.Properties;

/**
 * The database the tests' stores live in: the SQLite file by default; PostgreSQL when
 * {@code TEST_POSTGRES_URL} (with {@code TEST_POSTGRES_USER}, {@code TEST_POSTGRES_PASSWORD_FILE})
 * names a server, as test.sh's second pass does (scripts/postgres.sh starts it). On PostgreSQL each
 * data directory gets a database of its own, made on first use, so a test that restarts a server
 * on the same directory finds its store again, and no two tests share one.
 */
public final class TestStores {
    private static final String URL = System.getenv("TEST_POSTGRES_URL");

    private TestStores() {
    }

    public static boolean postgres() {
        return URL != null && !URL.isBlank();
    }

    /** What the server is told for a store under {@code dataDir}: nothing on SQLite, its own database on PostgreSQL. */
    public static DatabaseSettings forDataDir(Path dataDir) {
        if (!postgres()) {
            return DatabaseSettings.SQLITE;
        }
        String name = "t_" + HexFormat.of().formatHex(sha256(dataDir.toAbsolutePath().normalize().toString())).substring(0, 24);
        createIfMissing(name);
        return new DatabaseSettings(URL.replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1"), user(), password());
    }

    /** The same as CODEINTERP_* variables, for a server started from an environment. */
    public static java.util.Map<String, String> environment(Path dataDir) {
        DatabaseSettings s = forDataDir(dataDir);
        if (!s.postgres()) {
            return java.util.Map.of();
        }
        return java.util.Map.of("DATABASE_URL", s.url(), "DATABASE_USER", s.user(),
                "DATABASE_PASSWORD_FILE", System.getenv("TEST_POSTGRES_PASSWORD_FILE"));
    }

    /** A store in {@code dir}: SQLite's file there, or that directory's PostgreSQL database. */
    public static Database open(Path dir) {
        return Database.open(forDataDir(dir), dir.resolve("store.db"));
    }

    /** A connection to the server's maintenance database, for what a test does around the store (create, count). */
    public static Connection admin() throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", user());
        props.setProperty("password", password());
        return DriverManager.getConnection(URL, props);
    }

    private static synchronized void createIfMissing(String name) {
        try (Connection c = admin(); var st = c.createStatement()) {
            try (var rs = st.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + name + "'")) {
                if (rs.next()) {
                    return;
                }
            }
            st.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the test database " + name, e);
        }
    }

    private static String user() {
        return System.getenv().getOrDefault("TEST_POSTGRES_USER", "postgres");
    }

    private static String password() {
        try {
            return Files.readString(Path.of(System.getenv("TEST_POSTGRES_PASSWORD_FILE"))).strip();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] sha256(String s) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
