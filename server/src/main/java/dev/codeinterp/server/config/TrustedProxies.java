package dev.codeinterp.server.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The proxies in front of this server (TRUSTED_PROXIES: addresses or CIDR ranges), whose
 * {@code X-Forwarded-For} says who the client is. Behind HAProxy every request comes from HAProxy's
 * address, so without this every anonymous client would share one quota. The header is believed
 * only from a trusted peer, and only as far as trusted hops reach: read from the right, the first
 * address that is not a trusted proxy is the client (what a client writes into the header itself
 * stays to the left of it). Anything that is not an address literal ends the walk; nothing here
 * ever looks a name up.
 */
public record TrustedProxies(List<Range> ranges) {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    public static final TrustedProxies NONE = new TrustedProxies(List.of());

    /** An address range: {@code prefix} bits of {@code address} must match. */
    public record Range(byte[] address, int prefix) {
        boolean contains(byte[] other) {
            if (other.length != address.length) {
                return false;
            }
            for (int bit = 0; bit < prefix; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((address[bit / 8] & mask) != (other[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    public TrustedProxies {
        ranges = List.copyOf(ranges);
    }

    /** {@code 10.0.0.5}, {@code 10.250.0.0/16}, {@code ::1}, {@code fd00::/8}; anything else is refused at start. */
    public static TrustedProxies parse(List<String> entries) {
        List<Range> ranges = new ArrayList<>();
        for (String raw : entries) {
            String entry = raw.strip();
            int slash = entry.indexOf('/');
            byte[] address = literal(slash < 0 ? entry : entry.substring(0, slash));
            if (address == null) {
                throw new IllegalArgumentException("TRUSTED_PROXIES: '" + entry + "' is not an address or CIDR range");
            }
            int prefix = address.length * 8;
            if (slash >= 0) {
                try {
                    prefix = Integer.parseInt(entry.substring(slash + 1));
                } catch (NumberFormatException e) {
                    prefix = -1;
                }
                if (prefix < 0 || prefix > address.length * 8) {
                    throw new IllegalArgumentException("TRUSTED_PROXIES: '" + entry + "' has no valid prefix length");
                }
            }
            ranges.add(new Range(address, prefix));
        }
        return new TrustedProxies(ranges);
    }

    /**
     * Who the client is, for a request from {@code peer} carrying {@code forwardedFor} (the values of
     * every {@code X-Forwarded-For} header, in order).
     */
    public String client(String peer, List<String> forwardedFor) {
        if (!trusted(peer) || forwardedFor.isEmpty()) {
            return peer;
        }
        List<String> hops = new ArrayList<>();
        for (String header : forwardedFor) {
            for (String hop : header.split(",")) {
                hops.add(hop.strip());
            }
        }
        String client = peer;
        for (int i = hops.size() - 1; i >= 0; i--) {
            String hop = hops.get(i);
            if (literal(hop) == null) {
                return client; // a name, a port, garbage: nothing left of it is believed
            }
            client = hop;
            if (!trusted(hop)) {
                return hop;
            }
        }
        return client;
    }

    private boolean trusted(String address) {
        byte[] bytes = literal(address);
        return bytes != null && ranges.stream().anyMatch(r -> r.contains(bytes));
    }

    /** The bytes of an IPv4 or IPv6 literal, or null: checked by shape first, so no name is ever resolved. */
    private static byte[] literal(String s) {
        if (s == null || s.isEmpty() || s.length() > 45 || !(IPV4.matcher(s).matches() || IPV6.matcher(s).matches())) {
            return null;
        }
        if (IPV4.matcher(s).matches()) {
            for (String octet : s.split("\\.")) {
                if (Integer.parseInt(octet) > 255) {
                    return null; // else the JDK would take it for a host name and ask DNS
                }
            }
        }
        try {
            return InetAddress.getByName(s).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
