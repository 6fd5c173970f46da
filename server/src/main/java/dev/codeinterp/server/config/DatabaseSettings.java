package dev.codeinterp.server.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Where the store lives: unset {@code url}, the embedded SQLite file under the data directory; else a
 * PostgreSQL database ({@code CODEINTERP_DATABASE_URL}, {@code _USER}, {@code _PASSWORD_FILE}; user
 * and password may also be in the URL); {@code sync} ({@code CODEINTERP_DATABASE_SYNC}) how far a
 * commit has gone before its output is sent on, for either store. The password is never printed:
 * {@link #toString} and {@link #where} leave it out, and so does every message that names the URL.
 */
public record DatabaseSettings(String url, String user, String password, DatabaseSync sync) {
    /** jdbc:postgresql://host[:port][,host2[:port]...]/database[?parameters] */
    private static final Pattern POSTGRES_URL = Pattern.compile("jdbc:postgresql://[^/?#\\s]+/[^/?#\\s]+(\\?\\S*)?");

    public static final DatabaseSettings SQLITE = new DatabaseSettings(null, null, null);

    public DatabaseSettings(String url, String user, String password) {
        this(url, user, password, DatabaseSync.NORMAL);
    }

    public DatabaseSettings {
        java.util.Objects.requireNonNull(sync, "sync");
        if (url != null && !POSTGRES_URL.matcher(url).matches()) {
            throw new IllegalArgumentException("CODEINTERP_DATABASE_URL must be jdbc:postgresql://HOST[:PORT]/DATABASE, got "
                    + withoutParameters(url) + " (unset it for the embedded SQLite store)");
        }
        if (url == null && (user != null || password != null)) {
            throw new IllegalArgumentException("CODEINTERP_DATABASE_USER and CODEINTERP_DATABASE_PASSWORD_FILE need "
                    + "CODEINTERP_DATABASE_URL (the PostgreSQL database to use)");
        }
    }

    public boolean postgres() {
        return url != null;
    }

    /** The database for messages and logs: host, port and name, never the parameters (they may hold a password). */
    public String where() {
        return url == null ? "the embedded SQLite store" : withoutParameters(url).substring("jdbc:".length());
    }

    /** {@code url}'s database, with the user and password file of {@code env} (copy-store's target). */
    public static DatabaseSettings withUrl(String url, java.util.Map<String, String> env) {
        return read(new EnvReader(env), url);
    }

    static DatabaseSettings read(EnvReader r) {
        return read(r, r.string("DATABASE_URL", null));
    }

    private static DatabaseSettings read(EnvReader r, String url) {
        String passwordFile = r.string("DATABASE_PASSWORD_FILE", null);
        return new DatabaseSettings(url, r.string("DATABASE_USER", null),
                passwordFile == null ? null : readPassword(Path.of(passwordFile)),
                DatabaseSync.parse(r.string("DATABASE_SYNC", "normal")));
    }

    /** The file's first line: an operator's {@code echo secret > file} leaves a newline the password does not have. */
    private static String readPassword(Path file) {
        try {
            String content = Files.readString(file, StandardCharsets.UTF_8);
            return content.lines().findFirst().orElse("");
        } catch (IOException e) {
            String why = e instanceof java.nio.file.NoSuchFileException ? "no such file"
                    : e instanceof java.nio.file.AccessDeniedException ? "permission denied" : "unreadable";
            throw new IllegalArgumentException("CODEINTERP_DATABASE_PASSWORD_FILE: cannot read " + file + " (" + why + ")");
        }
    }

    private static String withoutParameters(String url) {
        int q = url.indexOf('?');
        return q < 0 ? url : url.substring(0, q);
    }

    @Override
    public String toString() {
        return "DatabaseSettings[" + where() + (user == null ? "" : ", user " + user) + ", sync " + sync + "]";
    }
}
