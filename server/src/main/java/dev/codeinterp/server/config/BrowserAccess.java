package dev.codeinterp.server.config;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which web pages may drive this server: the one home of the Host and Origin rules.
 *
 * <p>Host ({@code CODEINTERP_ALLOWED_HOSTS}): a page whose own name the attacker rebinds to
 * 127.0.0.1 is same-origin with us to the browser, responses included. So while the server listens
 * on loopback only loopback names and addresses are served ({@code localhost}, {@code 127.0.0.0/8},
 * {@code [::1]}, any port) plus the listed names; listening elsewhere, the list applies when given.
 * Names are never resolved: the check is on the text the browser sent.
 *
 * <p>Origin ({@code CODEINTERP_ALLOWED_ORIGINS}): any page may send a cross-site "simple" request
 * (text/plain, a form, {@code no-cors}) without a preflight, and it runs even though the page cannot
 * read the answer. A request that carries an {@code Origin} must come from our own host or a listed
 * origin; {@code null} (sandboxed frames, file: pages) is foreign. A request without one (curl, SDKs,
 * agents) is not a browser's cross-site request and passes.
 */
public record BrowserAccess(boolean loopbackBound, List<String> allowedHosts, List<String> allowedOrigins) {
    private static final Pattern HOST = Pattern.compile("(\\*|[a-z0-9]([a-z0-9.-]*[a-z0-9])?|\\[[0-9a-f:.]+\\])(:[0-9]{1,5})?");
    private static final Pattern HOST_HEADER = Pattern.compile("(\\[[0-9a-f:.]+\\]|[^\\[\\]:/@\\s]+)(?::[0-9]{1,5})?");
    private static final Pattern DOTTED_QUAD = Pattern.compile("(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
            + "(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}");

    public BrowserAccess {
        allowedHosts = List.copyOf(allowedHosts);
        allowedOrigins = List.copyOf(allowedOrigins);
    }

    /** From the listening address and the two settings, each entry checked so a typo fails the start. */
    public static BrowserAccess parse(String listenHost, List<String> hosts, List<String> origins) {
        List<String> parsedHosts = hosts.stream().map(h -> h.strip().toLowerCase(Locale.ROOT)).toList();
        for (String h : parsedHosts) {
            if (!HOST.matcher(h).matches()) {
                throw new IllegalArgumentException("CODEINTERP_ALLOWED_HOSTS: '" + h + "' is not a host name "
                        + "(name, name:port, an IP address in [brackets] for IPv6, or * for any)");
            }
        }
        List<String> parsedOrigins = origins.stream().map(String::strip).toList();
        for (String o : parsedOrigins) {
            if (!o.equals("*") && authority(o).isEmpty()) {
                throw new IllegalArgumentException("CODEINTERP_ALLOWED_ORIGINS: '" + o + "' is not an origin (scheme://host[:port], or *)");
            }
        }
        return new BrowserAccess(Settings.isLoopback(listenHost), parsedHosts, parsedOrigins);
    }

    /** Why a request naming this {@code Host} is refused, or empty when it may be served. */
    public Optional<String> hostRefusal(String hostHeader) {
        if (!loopbackBound && allowedHosts.isEmpty()) {
            return Optional.empty();
        }
        if (hostHeader == null || hostHeader.isEmpty()) {
            // HTTP/1.1 cannot omit it (Jetty answers 400 first); no browser sends a request without it
            return Optional.empty();
        }
        String host = hostHeader.strip().toLowerCase(Locale.ROOT);
        String name = nameOf(host);
        if (!name.isEmpty() && (isLoopbackName(name) || allowedHosts.contains("*") || allowedHosts.contains(host)
                || allowedHosts.contains(name))) {
            return Optional.empty();
        }
        return Optional.of("host not allowed: this server answers to "
                + (loopbackBound ? "localhost, 127.0.0.1 and [::1]" : "its listed names")
                + (allowedHosts.isEmpty() ? "" : " and CODEINTERP_ALLOWED_HOSTS")
                + "; a page that renamed itself to reach it is refused");
    }

    /** Why a request carrying this {@code Origin} is refused, or empty when the page may drive us. */
    public Optional<String> originRefusal(String origin, String hostHeader) {
        if (origin == null) {
            return Optional.empty();
        }
        if (allowedOrigins.contains("*") || allowedOrigins.contains(origin)) {
            return Optional.empty();
        }
        if (isOwnOrigin(origin, hostHeader)) {
            return Optional.empty();
        }
        return Optional.of("origin not allowed: a page of another site may not drive this server "
                + "(its own pages and CODEINTERP_ALLOWED_ORIGINS may)");
    }

    /** Whether the page is one of ours: its origin's host and port are those the request was sent to. */
    public boolean isOwnOrigin(String origin, String hostHeader) {
        Optional<String> authority = origin == null ? Optional.empty() : authority(origin);
        return authority.isPresent() && hostHeader != null && authority.get().equalsIgnoreCase(hostHeader.strip());
    }

    /** {@code host[:port]} of an origin as a browser sends it, or empty for null, opaque or malformed ones. */
    private static Optional<String> authority(String origin) {
        if (origin.equals("null")) {
            return Optional.empty();
        }
        try {
            URI uri = new URI(origin);
            String scheme = uri.getScheme();
            if (uri.getHost() == null || !("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))
                    || uri.getRawPath() != null && !uri.getRawPath().isEmpty() || uri.getRawQuery() != null
                    || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
                return Optional.empty();
            }
            return Optional.of(uri.getPort() == -1 ? uri.getHost() : uri.getHost() + ":" + uri.getPort());
        } catch (java.net.URISyntaxException e) {
            return Optional.empty();
        }
    }

    /** The name part of {@code host[:port]} or {@code [v6][:port]}; empty when the header is not of that shape. */
    private static String nameOf(String host) {
        Matcher m = HOST_HEADER.matcher(host);
        return m.matches() ? m.group(1) : "";
    }

    /** localhost, 127.0.0.0/8 as a dotted quad, or a bracketed IPv6 loopback literal; no name is resolved. */
    private static boolean isLoopbackName(String name) {
        if (name.equals("localhost")) {
            return true;
        }
        if (DOTTED_QUAD.matcher(name).matches()) {
            return name.startsWith("127.");
        }
        if (name.startsWith("[") && name.endsWith("]") && name.length() > 2
                && name.substring(1, name.length() - 1).matches("[0-9a-f:]+")) {
            try {
                return InetAddress.getByName(name).isLoopbackAddress(); // an IPv6 literal: parsed, not looked up
            } catch (UnknownHostException e) {
                return false;
            }
        }
        return false;
    }
}
