package dev.codeinterp.server.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The keys file named by {@code CODEINTERP_API_KEYS}: one key a line,
 * {@code <name> <sha256-hex> [max_sessions] [embed=<origin>,...]} (with {@code embed=}, a publishable embed key),
 * blank lines and {@code #} comments ignored. Only hashes live in it, so the file leaking does not leak keys.
 */
public final class ApiKeysFile {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@-]{1,64}");
    private static final String EMBED = "embed=";
    private static final Pattern HASH = Pattern.compile("(sha256:)?[0-9a-fA-F]{64}");

    private ApiKeysFile() {
    }

    public static List<ApiKey> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("CODEINTERP_API_KEYS: cannot read " + file + ": " + e.getMessage());
        }
        List<ApiKey> keys = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            keys.add(parse(line, file + ":" + (i + 1), names));
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("CODEINTERP_API_KEYS: " + file + " holds no key; add one with `new-key NAME`");
        }
        return List.copyOf(keys);
    }

    private static ApiKey parse(String line, String where, Set<String> names) {
        String[] parts = line.split("\\s+");
        if (parts.length < 2 || parts.length > 4) {
            throw new IllegalArgumentException(where + ": expected '<name> <sha256-hex> [max_sessions] [embed=<origin>,...]'");
        }
        if (!NAME.matcher(parts[0]).matches()) {
            throw new IllegalArgumentException(where + ": a key's name is 1-64 of A-Z a-z 0-9 . _ @ -");
        }
        if (!names.add(parts[0])) {
            throw new IllegalArgumentException(where + ": the name '" + parts[0] + "' is given twice");
        }
        if (!HASH.matcher(parts[1]).matches()) {
            throw new IllegalArgumentException(where + ": the second field must be the key's SHA-256 in hex (64 digits), never the key");
        }
        Integer max = null;
        List<String> origins = List.of();
        for (int i = 2; i < parts.length; i++) {
            if (parts[i].startsWith(EMBED)) {
                if (!origins.isEmpty()) {
                    throw new IllegalArgumentException(where + ": give a key's embed origins once, comma-separated");
                }
                origins = embedOrigins(parts[i].substring(EMBED.length()), where);
            } else if (max == null) {
                max = maxSessions(parts[i], where);
            } else {
                throw new IllegalArgumentException(where + ": expected '<name> <sha256-hex> [max_sessions] [embed=<origin>,...]'");
            }
        }
        String hex = parts[1].startsWith("sha256:") ? parts[1].substring(7) : parts[1];
        return new ApiKey(parts[0], hex.toLowerCase(java.util.Locale.ROOT), max, origins);
    }

    private static int maxSessions(String field, String where) {
        int max;
        try {
            max = Integer.parseInt(field);
        } catch (NumberFormatException e) {
            max = -1;
        }
        if (max < 1) {
            throw new IllegalArgumentException(where + ": max_sessions must be a positive whole number");
        }
        return max;
    }

    /** The pages a publishable key may be used on: origins as CODEINTERP_EMBED_ORIGINS takes them. */
    private static List<String> embedOrigins(String list, String where) {
        List<String> origins = List.of(list.split(",", -1));
        if (list.isEmpty() || origins.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException(where + ": embed= needs one or more origins, comma-separated");
        }
        try {
            return EmbedOrigins.parse(origins).sources();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage().replace("CODEINTERP_EMBED_ORIGINS: ", ""));
        }
    }
}
