package dev.codeinterp.server.cluster;

import dev.codeinterp.server.store.NodeRepository;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * How one node proves to another that a request is its own: an HMAC-SHA256 of what it asks and
 * when, keyed by the hash of its node key that its row in the store holds. The key itself never
 * crosses the network, a proof is good for one request about one session for a minute, and only a
 * party that can read the nodes table (the nodes themselves) can make one. Between hosts it still
 * travels in the clear unless the nodes' URLs are https (README, "Running a cluster").
 */
final class NodeProof {
    static final long VALID_MS = 60_000;

    private NodeProof() {
    }

    /** {@code <millis>.<hex hmac>} over {@code what} at {@code now}, keyed by {@code keyHash}. */
    static String sign(String keyHash, String what, long now) {
        return now + "." + mac(keyHash, what + "\n" + now);
    }

    /** Whether {@code proof} is node {@code from}'s, for {@code what}, made within {@link #VALID_MS} of {@code now}. */
    static boolean verify(NodeRepository nodes, String from, String what, String proof, long now) {
        if (from == null || proof == null) {
            return false;
        }
        int dot = proof.indexOf('.');
        long at;
        try {
            at = Long.parseLong(proof.substring(0, Math.max(dot, 0)));
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(now - at) > VALID_MS) {
            return false;
        }
        String keyHash = nodes.keyHash(from).orElse(null);
        return keyHash != null && MessageDigest.isEqual(mac(keyHash, what + "\n" + at).getBytes(StandardCharsets.US_ASCII),
                proof.substring(dot + 1).getBytes(StandardCharsets.US_ASCII));
    }

    private static String mac(String keyHash, String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(keyHash.getBytes(StandardCharsets.US_ASCII), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no HmacSHA256 in this JVM", e);
        }
    }
}
