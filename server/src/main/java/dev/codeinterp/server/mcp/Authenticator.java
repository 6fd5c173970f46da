package dev.codeinterp.server.mcp;

import dev.codeinterp.server.session.Client;

/**
 * Who is calling {@code /mcp}: the same answer the REST API gives for its {@code Authorization}
 * header (an API key's client when keys are required, the remote address otherwise). The api
 * layer supplies it, so the key check lives in one place.
 */
@FunctionalInterface
public interface Authenticator {
    /**
     * The client of a request from {@code peer} with these {@code X-Forwarded-For} values (believed only
     * from a trusted proxy); {@link Refused} with a message for the caller when the key is missing or wrong.
     */
    Client authenticate(String authorizationHeader, String peer, java.util.List<String> forwardedFor) throws Refused;

    /** No key, or a key that is not ours. */
    final class Refused extends Exception {
        public Refused(String message) {
            super(message, null, false, false);
        }
    }
}
