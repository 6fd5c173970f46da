package dev.codeinterp.server.config;

/**
 * One API key as the keys file holds it: a name for logs and quotas, the SHA-256 of the key (the key
 * itself is never stored), and the key's own session quota, or null for the server's default.
 */
public record ApiKey(String name, String sha256Hex, Integer maxSessions) {
}
