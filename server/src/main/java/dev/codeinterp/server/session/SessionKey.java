package dev.codeinterp.server.session;

/**
 * What opens a session: its token (what REST and WebSocket callers hold), or, for a caller inside the
 * server that proved the right another way, the client that owns it. MCP opens its code sessions by
 * owner: no token is kept for them, and its own record of which MCP session made which code session,
 * usable only by that client, is the proof. Either way a session of another client does not open.
 */
public sealed interface SessionKey {

    /** Whether a session whose token hashes to {@code tokenHash} and whose owner is {@code owner} opens with this key. */
    boolean opens(String tokenHash, String owner);

    static SessionKey token(String token) {
        return new Token(token);
    }

    /** Opens the sessions of the client whose {@link Client#id()} is {@code clientId}. */
    static SessionKey ownedBy(String clientId) {
        return new Owner(clientId);
    }

    record Token(String token) implements SessionKey {
        @Override
        public boolean opens(String tokenHash, String owner) {
            return Tokens.matches(token, tokenHash);
        }

        @Override
        public String toString() {
            return "Token[…]"; // never in a log
        }
    }

    record Owner(String clientId) implements SessionKey {
        @Override
        public boolean opens(String tokenHash, String owner) {
            return clientId != null && clientId.equals(owner);
        }
    }
}
