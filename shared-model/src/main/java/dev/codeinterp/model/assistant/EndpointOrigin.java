package dev.codeinterp.model.assistant;

/**
 * Whether a model endpoint's origin may go into a CSP ({@code connect-src}) as local mode's relay
 * page needs: {@code http(s)://host[:port]} as a browser serialises it (lowercase), a DNS name, an
 * IPv4 or a bracketed IPv6 address, nothing more: no path, wildcard, quote, space, separator or
 * user info, any of which could widen the policy or break out of the header. The browser checks it
 * before it keeps an endpoint; the server checks it again before it builds the page.
 */
public final class EndpointOrigin {
    private static final String LABEL = "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?";
    private static final String PATTERN = "https?://(" + LABEL + "(\\." + LABEL + ")*|\\[[0-9a-f:.]{2,45}\\])(:[0-9]{1,5})?";

    private EndpointOrigin() {
    }

    public static boolean valid(String origin) {
        if (origin == null || origin.length() > 300 || !origin.matches(PATTERN)) {
            return false;
        }
        int colon = origin.lastIndexOf(':');
        return !(colon > origin.indexOf("//") && colon > origin.lastIndexOf(']'))
                || Integer.parseInt(origin.substring(colon + 1)) <= 65535;
    }
}
