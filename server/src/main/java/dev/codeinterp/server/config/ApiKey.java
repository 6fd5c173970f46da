package dev.codeinterp.server.config;

import java.util.List;

/**
 * One API key as the keys file holds it: a name for logs and quotas, the SHA-256 of the key (the key
 * itself is never stored), and the key's own session quota, or null for the server's default.
 * A key with {@code embedOrigins} is a publishable embed key: public by nature (it sits in a
 * host page), it only opens sessions from the embed widget on pages of those origins.
 */
public record ApiKey(String name, String sha256Hex, Integer maxSessions, List<String> embedOrigins) {
    public ApiKey {
        embedOrigins = List.copyOf(embedOrigins);
    }

    public ApiKey(String name, String sha256Hex, Integer maxSessions) {
        this(name, sha256Hex, maxSessions, List.of());
    }

    public boolean publishable() {
        return !embedOrigins.isEmpty();
    }
}
