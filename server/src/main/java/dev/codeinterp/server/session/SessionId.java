package dev.codeinterp.server.session;

import dev.codeinterp.server.config.NodeSettings;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A session's id as clients hold it: a node hint, a dot, and 22 base64url characters (16 random
 * bytes), {@code n2.Qk3…}; an id made where no node was named has no hint. The hint names the node a
 * session started on, so the front door routes to it without asking anyone; only a hint: a session
 * that moves keeps its id, and whoever receives it looks its node up. Code sessions and MCP sessions
 * share this shape, and HAProxy's template ({@code scripts/cluster/haproxy.cfg.tmpl}) reads it the
 * same way ({@code SessionIdTest} holds it to this class). Safe as a file name and in a URL.
 */
public record SessionId(String node, String random) {
    /** The 16 random bytes as base64url without padding. */
    public static final String RANDOM_PATTERN = "[A-Za-z0-9_-]{22}";
    /** An id with its node hint: what the front door routes on. */
    public static final String ROUTED_PATTERN = NodeSettings.ID_PATTERN + "\\." + RANDOM_PATTERN;
    private static final Pattern SHAPE = Pattern.compile("(?:(" + NodeSettings.ID_PATTERN + ")\\.)?(" + RANDOM_PATTERN + ")");
    private static final SecureRandom RANDOM = new SecureRandom();

    public SessionId {
        if (node != null && !node.matches(NodeSettings.ID_PATTERN) || random == null || !random.matches(RANDOM_PATTERN)) {
            throw new IllegalArgumentException("not a session id: " + node + "." + random);
        }
    }

    /** A new id for a session starting on {@code node} (null: no hint). */
    public static SessionId newOn(String node) {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return of(node, b);
    }

    /** The id made of {@code node} and these 16 bytes (an MCP session's UUID). */
    public static SessionId of(String node, byte[] sixteen) {
        if (sixteen.length != 16) {
            throw new IllegalArgumentException("a session id holds 16 bytes, not " + sixteen.length);
        }
        return new SessionId(node, Base64.getUrlEncoder().withoutPadding().encodeToString(sixteen));
    }

    /** {@code s} as a session id; empty when it has not that shape (null included). */
    public static Optional<SessionId> parse(String s) {
        if (s == null) {
            return Optional.empty();
        }
        Matcher m = SHAPE.matcher(s);
        return m.matches() ? Optional.of(new SessionId(m.group(1), m.group(2))) : Optional.empty();
    }

    /** The session id a path begins with ({@code <id>} or {@code <id>/…}), if it is one. */
    public static Optional<SessionId> leading(String path) {
        int slash = path.indexOf('/');
        return parse(slash < 0 ? path : path.substring(0, slash));
    }

    /** Whether the hint names {@code nodeId}: the session started there. */
    public boolean startedOn(String nodeId) {
        return node != null && node.equals(nodeId);
    }

    /** As clients hold it. */
    @Override
    public String toString() {
        return node == null ? random : node + "." + random;
    }
}
