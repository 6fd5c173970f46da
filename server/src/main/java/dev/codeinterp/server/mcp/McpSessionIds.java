package dev.codeinterp.server.mcp;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.UUID;

/**
 * The MCP session ids clients see name this node, as code session ids do ({@code n2.Qk3…}: the node,
 * a dot, 22 base64url characters), so the front door routes an MCP session's requests to the node
 * that holds it. The SDK names its sessions with a UUID and offers no other way: the UUID's 16 bytes
 * are the 22 characters, so the two map one to one, and nothing needs remembering.
 */
final class McpSessionIds {
    private final String node;

    McpSessionIds(String node) {
        this.node = node;
    }

    /** What the client is told for the SDK's {@code internal} id; an id that is not a UUID goes out as it is. */
    String external(String internal) {
        UUID uuid;
        try {
            uuid = UUID.fromString(internal);
        } catch (IllegalArgumentException e) {
            return internal;
        }
        byte[] bytes = ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits()).array();
        return node + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * The SDK's id for what a client sent, or null when it names no MCP session of this node (another
     * node's, one made before a restart of it, garbage): such a session is unknown here.
     */
    String internal(String external) {
        String prefix = node + ".";
        if (external == null || !external.startsWith(prefix) || external.length() != prefix.length() + 22) {
            return null;
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(external.substring(prefix.length()));
        } catch (IllegalArgumentException e) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        return new UUID(b.getLong(), b.getLong()).toString();
    }
}
