package dev.codeinterp.server.session;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/** Session ids (128 random bits) and secret tokens (256 random bits); only a token's SHA-256 is ever stored. */
public final class Tokens {
    private static final SecureRandom RANDOM = new SecureRandom();

    private Tokens() {
    }

    public static String newId() {
        return random(16);
    }

    /**
     * A session id that names the node it starts on ({@code n2.Qk3…}), so the front door can route
     * to it without asking anyone; only a hint: a session that moves keeps its id, and whoever
     * receives it looks its node up.
     */
    public static String newId(String node) {
        return node == null ? newId() : node + "." + newId();
    }

    /** Whether {@code s} has a session id's shape ({@link #newId}): safe as a file name and in a URL. */
    public static boolean isSessionId(String s) {
        return s != null && s.matches("([a-z0-9][a-z0-9-]{0,31}\\.)?[A-Za-z0-9_-]{22}");
    }

    public static String newToken() {
        return random(32);
    }

    private static String random(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    public static String hash(String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** Constant-time comparison of a presented token with a stored hash. */
    public static boolean matches(String presented, String storedHash) {
        if (presented == null || storedHash == null) {
            return false;
        }
        return MessageDigest.isEqual(hash(presented).getBytes(StandardCharsets.US_ASCII),
                storedHash.getBytes(StandardCharsets.US_ASCII));
    }
}
