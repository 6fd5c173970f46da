package dev.codeinterp.server.mcp;

import dev.codeinterp.server.session.SessionId;

import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * The MCP session ids clients see name this node, as code session ids do ({@link SessionId}), so the front door routes an MCP session's requests to the node
 * that holds it. The SDK names its sessions with a UUID and offers no other way: the UUID's 16 bytes
 * are the 22 characters. The client's id stays the same for the session's whole life, also when the
 * SDK's changes (the session begun again after a restart, or on another node after a drain: {@link McpSessions}
 * maps the two); its node part then says where it began, and the store where it is now.
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
        return SessionId.of(node, bytes).toString();
    }

    /**
     * Whether {@code external} has the shape of an id this cluster hands out (a node, a dot, 22
     * base64url characters): anything else is answered 404 without a look in the store.
     */
    static boolean wellFormed(String external) {
        return SessionId.parse(external).map(id -> id.node() != null).orElse(false);
    }
}
