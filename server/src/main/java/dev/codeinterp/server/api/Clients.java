package dev.codeinterp.server.api;

import dev.codeinterp.server.config.ApiKey;
import dev.codeinterp.server.config.Settings;
import dev.codeinterp.server.session.Client;
import dev.codeinterp.server.session.Tokens;
import io.javalin.http.Context;

import java.util.List;

/**
 * Who is asking for a session or a one-shot run. With API keys configured, the request must carry
 * {@code Authorization: Bearer <key>}: the key is hashed and compared in constant time with every
 * stored hash (no early exit, so timing tells nothing about which key came close). Without keys
 * the remote address is the client, for quotas.
 */
final class Clients {
    private final List<ApiKey> keys;
    private final int defaultMaxSessions;

    Clients(Settings settings) {
        this.keys = settings.apiKeys();
        this.defaultMaxSessions = settings.maxSessionsPerClient();
    }

    Client of(Context ctx) {
        return of(ctx.header("Authorization"), ctx.ip());
    }

    /** The same check for a request that is not Javalin's (the MCP servlet). */
    Client of(String header, String address) {
        if (keys.isEmpty()) {
            return Client.ofAddress(address, defaultMaxSessions);
        }
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7) || header.length() > 7 + 512) {
            throw new Unauthorized("an API key is required: send 'Authorization: Bearer <key>'");
        }
        String presented = header.substring(7).trim();
        ApiKey match = null;
        for (ApiKey key : keys) {
            if (Tokens.matches(presented, key.sha256Hex()) & match == null) {
                match = key;
            }
        }
        if (match == null) {
            throw new Unauthorized("the API key was not accepted");
        }
        return Client.ofKey(match.name(), match.maxSessions() != null ? match.maxSessions() : defaultMaxSessions);
    }

    /** No key, or a key that is not ours: 401. */
    static final class Unauthorized extends RuntimeException {
        Unauthorized(String message) {
            super(message);
        }
    }
}
