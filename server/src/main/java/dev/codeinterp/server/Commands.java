package dev.codeinterp.server;

import dev.codeinterp.server.config.DatabaseSettings;
import dev.codeinterp.server.session.Tokens;
import dev.codeinterp.server.store.StoreCopy;
import dev.codeinterp.server.store.StoreUnavailableException;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * The server jar's few subcommands besides serving: {@code new-key NAME [MAX_SESSIONS]},
 * {@code new-embed-key NAME ORIGINS [MAX_SESSIONS]}, {@code copy-store --to URL [--from FILE]}.
 */
final class Commands {
    private Commands() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, System.getenv(), out, err);
    }

    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        if ("copy-store".equals(args[0]) && (args.length == 3 || args.length == 5) && "--to".equals(args[1])
                && (args.length == 3 || "--from".equals(args[3]))) {
            return copyStore(args[2], args.length == 5 ? Path.of(args[4]) : null, env, out, err);
        }
        if ("new-key".equals(args[0]) && (args.length == 2 || args.length == 3)) {
            String key = "ci_" + Tokens.newToken();
            out.println("key (give it to its user; it is not stored anywhere): " + key);
            out.println("line for the keys file (CODEINTERP_API_KEYS):");
            out.println(args[1] + " " + Tokens.hash(key) + (args.length == 3 ? " " + args[2] : ""));
            return 0;
        }
        if ("new-embed-key".equals(args[0]) && (args.length == 3 || args.length == 4)) {
            String key = "ci_pk_" + Tokens.newToken();
            out.println("publishable embed key (it goes in your pages' CodeInterp.mount(..., {key}); it opens sessions only");
            out.println("from the embed widget on pages of " + args[2] + "): " + key);
            out.println("line for the keys file (CODEINTERP_API_KEYS):");
            out.println(args[1] + " " + Tokens.hash(key) + (args.length == 4 ? " " + args[3] : "") + " embed=" + args[2]);
            return 0;
        }
        err.println("usage: java -jar codeinterp-server.jar                         serve (settings: CODEINTERP_* variables)");
        err.println("       java -jar codeinterp-server.jar new-key NAME [MAX_SESSIONS]   mint an API key and its keys-file line");
        err.println("       java -jar codeinterp-server.jar new-embed-key NAME ORIGIN[,ORIGIN...] [MAX_SESSIONS]");
        err.println("                                       mint a publishable key for the embed widget on those pages");
        err.println("       java -jar codeinterp-server.jar copy-store --to jdbc:postgresql://HOST[:PORT]/DATABASE [--from FILE]");
        err.println("                                       copy the SQLite store (default $CODEINTERP_DATA_DIR/codeinterp.db) into an");
        err.println("                                       empty PostgreSQL database (user, password: CODEINTERP_DATABASE_USER, _PASSWORD_FILE)");
        return 2;
    }

    /** Copies a stopped install's SQLite store into an empty PostgreSQL database and checks the copy. */
    private static int copyStore(String url, Path from, Map<String, String> env, PrintStream out, PrintStream err) {
        try {
            Path file = from != null ? from
                    : Path.of(env.getOrDefault("CODEINTERP_DATA_DIR", "data")).toAbsolutePath().resolve("codeinterp.db");
            DatabaseSettings target = DatabaseSettings.withUrl(url, env);
            out.println("copying " + file + " into " + target.where() + " (stop the server that uses it first)");
            StoreCopy.Copied copied = StoreCopy.copy(file, target);
            out.println("copied and checked: " + copied.sessions() + " sessions, " + copied.executions() + " cells, "
                    + copied.events() + " events; every session's last seq matches. Start the server with "
                    + "CODEINTERP_DATABASE_URL=" + url.replaceFirst("\\?.*", ""));
            return 0;
        } catch (IllegalArgumentException | StoreCopy.CopyRefusedException | StoreUnavailableException e) {
            err.println("codeinterp: " + e.getMessage());
            return 2;
        } catch (RuntimeException e) {
            // the copy is one transaction: whatever broke it, the target holds nothing of it
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            err.println("codeinterp: copy-store failed, nothing was kept in the target: "
                    + String.valueOf(root.getMessage()).replaceAll("\\s*\\R\\s*", " "));
            return 1;
        }
    }
}
