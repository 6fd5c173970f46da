package dev.codeinterp.server.api;

import dev.codeinterp.model.rules.EmbedOriginMatch;
import dev.codeinterp.server.config.ApiKey;
import dev.codeinterp.server.config.EmbedOrigins;
import dev.codeinterp.server.config.Settings;
import dev.codeinterp.server.config.TrustedProxies;
import dev.codeinterp.server.session.Client;
import dev.codeinterp.server.session.SessionKey;
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
    /** The header in which the embed widget names the page it sits on (its parent's origin). */
    static final String EMBED_ORIGIN_HEADER = "X-CodeInterp-Embed-Origin";

    private final List<ApiKey> keys;
    private final int defaultMaxSessions;
    private final EmbedOrigins embedOrigins;
    private final TrustedProxies proxies;

    Clients(Settings settings) {
        this.proxies = settings.trustedProxies();
        this.embedOrigins = settings.embedOrigins();
        this.keys = settings.apiKeys();
        this.defaultMaxSessions = settings.maxSessionsPerClient();
    }

    Client of(Context ctx) {
        return of(ctx.header("Authorization"), address(ctx));
    }

    /** The client's address: the peer's, or the one a trusted proxy in front says it forwards for. */
    String address(Context ctx) {
        return proxies.client(ctx.ip(), java.util.Collections.list(ctx.req().getHeaders("X-Forwarded-For")));
    }

    /** The same check for a request that is not Javalin's (the MCP servlet). */
    Client of(String header, String address) {
        if (keys.isEmpty()) {
            return Client.ofAddress(address, defaultMaxSessions);
        }
        ApiKey key = match(header);
        if (key.publishable()) {
            throw new Unauthorized("a publishable embed key only opens sessions from the embed widget; use an API key here");
        }
        return client(key);
    }

    /**
     * Who asks to open a session: as {@link #of(Context)}, and a publishable embed key too, when
     * the widget says it sits on a page of one of the key's origins that may also frame it. The
     * widget reads that origin from the browser ({@code location.ancestorOrigins}); a client
     * outside a browser can claim any origin, so the key's quota is what bounds it (say so in docs/embed.md).
     */
    Client forSession(Context ctx) {
        if (keys.isEmpty()) {
            return Client.ofAddress(address(ctx), defaultMaxSessions);
        }
        ApiKey key = match(ctx.header("Authorization"));
        if (key.publishable()) {
            String page = ctx.header(EMBED_ORIGIN_HEADER);
            if (page == null || page.isEmpty()) {
                throw new Forbidden("a publishable embed key opens sessions only from the embed widget, which names its page in "
                        + EMBED_ORIGIN_HEADER);
            }
            if (!EmbedOriginMatch.allowed(page, key.embedOrigins()) || !EmbedOriginMatch.allowed(page, embedOrigins.sources())) {
                throw new Forbidden("this embed key is not for pages of " + (page.length() > 200 ? page.substring(0, 200) + "…" : page));
            }
        }
        return client(key);
    }

    /**
     * The client a session belongs to (its id as stored), with its quota as configured now: what a
     * fork of the session counts against. A key since removed from the keys file has no quota left.
     */
    Client owner(String clientId) {
        if (clientId.startsWith("key:")) {
            String name = clientId.substring(4);
            return keys.stream().filter(k -> k.name().equals(name)).findFirst().map(this::client)
                    .orElseGet(() -> new Client(clientId, 0));
        }
        return new Client(clientId, defaultMaxSessions);
    }

    private ApiKey match(String header) {
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7) || header.length() > 7 + 512) {
            throw new Unauthorized("an API key is required: send 'Authorization: Bearer <key>'");
        }
        ApiKey match = find(header.substring(7).trim());
        if (match == null) {
            throw new Unauthorized("the API key was not accepted");
        }
        return match;
    }

    /** The key {@code presented} is, compared with every key alike; null when none. */
    private ApiKey find(String presented) {
        ApiKey match = null;
        for (ApiKey key : keys) {
            if (Tokens.matches(presented, key.sha256Hex()) & match == null) {
                match = key;
            }
        }
        return match;
    }

    /**
     * What a per-session request's bearer opens. A secret API key opens the sessions it owns (those
     * it created, and their forks), so a browser holding the key opens them on any device; anything
     * else is taken as the session's own token. A publishable embed key opens nothing this way: it
     * sits in a public page.
     */
    SessionKey sessionKey(String presented) {
        if (!keys.isEmpty() && presented.length() <= 512) {
            ApiKey key = find(presented);
            if (key != null && !key.publishable()) {
                return SessionKey.ownedBy(client(key).id());
            }
        }
        return SessionKey.token(presented);
    }

    private Client client(ApiKey key) {
        return Client.ofKey(key.name(), key.maxSessions() != null ? key.maxSessions() : defaultMaxSessions);
    }

    /** A key that is ours but not for this page or this use: 403. */
    static final class Forbidden extends RuntimeException {
        Forbidden(String message) {
            super(message);
        }
    }

    /** No key, or a key that is not ours: 401. */
    static final class Unauthorized extends RuntimeException {
        Unauthorized(String message) {
            super(message);
        }
    }
}
