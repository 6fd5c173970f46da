package dev.codeinterp.server;

import dev.codeinterp.server.session.Tokens;

import java.io.PrintStream;

/** The server jar's few subcommands besides serving: {@code new-key NAME [MAX_SESSIONS]}, {@code new-embed-key NAME ORIGINS [MAX_SESSIONS]}. */
final class Commands {
    private Commands() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
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
        return 2;
    }
}
