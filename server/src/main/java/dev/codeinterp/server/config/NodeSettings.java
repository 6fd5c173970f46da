package dev.codeinterp.server.config;

import java.net.URI;
import java.time.Duration;

/**
 * This server as a node of a cluster sharing one store (README, "Running a cluster"): {@code id}
 * (NODE_ID; null when unset: the id this data directory was first given, see
 * {@code cluster.NodeIdentity}), the {@code url} other nodes and the front door reach it at
 * (NODE_URL; null: {@code http://HOST:PORT}), and how long a node may go without a heartbeat before
 * the others mark it lost with its sessions (NODE_LOSS_AFTER), and whether a stop (SIGTERM) first
 * moves every session of this node to the others (DRAIN_ON_STOP).
 */
public record NodeSettings(String id, String url, Duration lossAfter, boolean drainOnStop) {
    /** Lower case, digits and dashes: it is put in session ids, HTTP headers and proxy rules as it is. */
    public static final String ID_PATTERN = "[a-z0-9][a-z0-9-]{0,31}";

    public NodeSettings {
        if (id != null && !id.matches(ID_PATTERN)) {
            throw new IllegalArgumentException("NODE_ID must be 1-32 of a-z, 0-9 and '-' (not first), got '" + id + "'");
        }
        if (url != null) {
            URI u;
            try {
                u = URI.create(url);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("NODE_URL is not a URL: " + url);
            }
            if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
                throw new IllegalArgumentException("NODE_URL must be an http(s) URL with a host, got " + url);
            }
        }
        if (lossAfter.compareTo(Duration.ofSeconds(2)) < 0) {
            throw new IllegalArgumentException("NODE_LOSS_AFTER must be at least 2s, got " + lossAfter);
        }
    }

    /** A node that stops without draining: its sessions wait for it to start again. */
    public NodeSettings(String id, String url, Duration lossAfter) {
        this(id, url, lossAfter, false);
    }

    /** How often a node says it is alive: several times within the loss timeout, so one slow write is no loss. */
    public Duration heartbeat() {
        return lossAfter.dividedBy(5);
    }

    /** The URL to register: the setting, else this server's own address. */
    public String urlOr(String host, int port) {
        if (url != null) {
            return url;
        }
        String h = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        return "http://" + h + ":" + port;
    }

    static NodeSettings read(EnvReader r) {
        return new NodeSettings(r.string("NODE_ID", null), r.string("NODE_URL", null),
                r.duration("NODE_LOSS_AFTER", Duration.ofSeconds(10)), r.bool("DRAIN_ON_STOP", false));
    }
}
