package dev.codeinterp.model.rules;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a page's origin is one an allowlist of CSP-style sources names ({@code scheme://host},
 * {@code scheme://host:port}, or {@code scheme://host:*} for any port). The embed frame asks it of
 * its parent (web's embed-channel.js holds the browser's copy) and the server of the page a
 * publishable embed key is used on; the table rules/embed-origins.json holds both to one answer.
 */
public final class EmbedOriginMatch {
    /** A serialised origin as browsers send it: lower-case scheme and host, a port only when not the default. */
    private static final Pattern ORIGIN = Pattern.compile("(https?)://([a-z0-9]([a-z0-9.-]*[a-z0-9])?|\\[[0-9a-f:.]+\\])(?::([0-9]{1,5}))?");
    private static final Pattern SOURCE = Pattern.compile("(https?)://([^:/]+)(?::([0-9]+|\\*))?");

    private EmbedOriginMatch() {
    }

    public static boolean allowed(String origin, List<String> sources) {
        if (origin == null || sources == null) {
            return false;
        }
        Matcher o = ORIGIN.matcher(origin);
        if (!o.matches()) {
            return false; // "null", file:, a path, credentials or upper case: never
        }
        String scheme = o.group(1);
        String port = o.group(4) == null ? "" : o.group(4);
        if (port.equals(scheme.equals("https") ? "443" : "80") || port.startsWith("0")) {
            return false; // browsers never serialise a default or zero-padded port
        }
        for (String source : sources) {
            Matcher s = SOURCE.matcher(source == null ? "" : source);
            if (s.matches() && s.group(1).equals(scheme) && s.group(2).equals(o.group(2))
                    && ("*".equals(s.group(3)) || (s.group(3) == null ? "" : s.group(3)).equals(port))) {
                return true;
            }
        }
        return false;
    }
}
