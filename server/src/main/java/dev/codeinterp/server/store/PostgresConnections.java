package dev.codeinterp.server.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.DriverDataSource;
import dev.codeinterp.server.config.DatabaseSettings;
import dev.codeinterp.server.config.DatabaseSync;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * How the store reaches PostgreSQL. The user and password go to the driver as properties, never in
 * the URL it is given: the driver hands that URL to whoever asks (Flyway logs it), so a password
 * written into {@code CODEINTERP_DATABASE_URL} is taken out of it first. A first connection is made
 * before anything else, so a wrong address or password is one clear message at start.
 */
final class PostgresConnections {
    private PostgresConnections() {
    }

    static Database open(DatabaseSettings settings) {
        DriverDataSource direct = direct(settings);
        probe(direct, settings);
        HikariConfig config = Database.poolConfig();
        config.setDataSource(direct);
        return Database.postgres(new HikariDataSource(config), direct);
    }

    /** The tables of the database's current schema (copy-store looks before it writes). */
    static List<String> tables(DatabaseSettings settings) {
        DriverDataSource direct = direct(settings);
        probe(direct, settings);
        try (Connection c = direct.getConnection();
             var rs = c.createStatement().executeQuery(
                     "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1")) {
            List<String> names = new ArrayList<>();
            while (rs.next()) {
                names.add(rs.getString(1));
            }
            return names;
        } catch (SQLException e) {
            throw new StoreUnavailableException("cannot read the tables of " + settings.where() + ": " + reason(e), e);
        }
    }

    /** Connections made by the driver itself, with the credentials as properties. */
    private static DriverDataSource direct(DatabaseSettings settings) {
        Properties props = new Properties();
        String url = moveToProperties(settings.url(), props);
        if (settings.sync() == DatabaseSync.NORMAL) {
            // SQLite's promise in WAL mode with synchronous=NORMAL (DatabaseSync): a commit waits for no
            // WAL flush. Before the URL's own options, so a synchronous_commit written there wins.
            String own = props.getProperty("options");
            props.setProperty("options", "-c synchronous_commit=off" + (own == null || own.isBlank() ? "" : " " + own));
        }
        if (settings.user() != null) {
            props.setProperty("user", settings.user());
        }
        if (settings.password() != null) {
            props.setProperty("password", settings.password());
        }
        props.setProperty("ApplicationName", "codeinterp");
        // a database that went away is noticed in seconds, not when the kernel gives up on the socket
        props.putIfAbsent("connectTimeout", "10");
        props.putIfAbsent("socketTimeout", "60");
        props.putIfAbsent("tcpKeepAlive", "true");
        // a batch of inserts (a run of a cell's output) goes as one multi-row INSERT
        props.putIfAbsent("reWriteBatchedInserts", "true");
        try {
            return new DriverDataSource(url, "org.postgresql.Driver", props, null, null);
        } catch (RuntimeException e) {
            throw new StoreUnavailableException("cannot use " + settings.where() + ": " + reason(e), e);
        }
    }

    /** Connects once: an unreachable server, an unknown database or a refused password ends the start here, saying which. */
    private static void probe(DriverDataSource direct, DatabaseSettings settings) {
        try (Connection c = direct.getConnection()) {
            c.isValid(5);
        } catch (SQLException | RuntimeException e) {
            throw new StoreUnavailableException("cannot connect to " + settings.where() + ": " + reason(e), e);
        }
    }

    /** The driver's own words (they name the host, user or database, never the password), on one line. */
    static String reason(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e.getCause() instanceof java.net.UnknownHostException host) {
            message += " (unknown host " + host.getMessage() + ")";
        }
        return message.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    /**
     * Moves {@code user=}, {@code password=} and {@code options=} from the URL's parameters into
     * {@code props} (the driver lets a URL's parameter override a property); returns the URL without them.
     */
    static String moveToProperties(String url, Properties props) {
        int q = url.indexOf('?');
        if (q < 0) {
            return url;
        }
        StringBuilder kept = new StringBuilder(url.substring(0, q));
        char sep = '?';
        for (String pair : url.substring(q + 1).split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            if ("user".equals(name) || "password".equals(name) || "options".equals(name)) {
                props.setProperty(name, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            } else {
                kept.append(sep).append(pair);
                sep = '&';
            }
        }
        return kept.toString();
    }
}
