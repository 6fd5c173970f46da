package dev.codeinterp.server.config;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The pages that may frame the embed widget ({@code CODEINTERP_EMBED_ORIGINS}): origins as CSP
 * source expressions, {@code scheme://host[:port]} or {@code scheme://host:*} for any port. They
 * become {@code frame-ancestors} of {@code /embed} (and of the frames it nests) and the list the
 * widget checks its parent against. The default is loopback on any port: for development only.
 */
public record EmbedOrigins(List<String> sources) {
    public static final List<String> LOOPBACK = List.of("http://localhost:*", "http://127.0.0.1:*",
            "https://localhost:*", "https://127.0.0.1:*");
    private static final Pattern SOURCE = Pattern.compile("https?://[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:([0-9]{1,5}|\\*))?");

    public EmbedOrigins {
        sources = List.copyOf(sources);
    }

    /** The configured list, each entry checked; none given means {@link #LOOPBACK}. */
    public static EmbedOrigins parse(List<String> configured) {
        if (configured.isEmpty()) {
            return new EmbedOrigins(LOOPBACK);
        }
        List<String> sources = configured.stream().map(s -> s.strip().toLowerCase(Locale.ROOT)).toList();
        for (String s : sources) {
            if (!SOURCE.matcher(s).matches()) {
                throw new IllegalArgumentException("CODEINTERP_EMBED_ORIGINS: '" + s + "' is not an origin "
                        + "(scheme://host, scheme://host:port or scheme://host:* for any port; no path, no wildcard host)");
            }
        }
        return new EmbedOrigins(sources);
    }

    /** The list as a CSP source list, space-separated. */
    public String csp() {
        return String.join(" ", sources);
    }
}
