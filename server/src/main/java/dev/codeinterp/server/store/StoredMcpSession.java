package dev.codeinterp.server.store;

import java.util.List;

/**
 * An MCP protocol session's row: {@code id} is the id its client holds, {@code client} who may use it,
 * {@code node} the node that holds it; {@code protocolVersion}, {@code clientCapabilities} and
 * {@code clientInfo} (JSON) what the client sent in {@code initialize}; {@code codeSessions} the ids of
 * the code sessions it made and has not closed.
 */
public record StoredMcpSession(String id, String client, String node, String protocolVersion, String clientCapabilities,
                               String clientInfo, long createdAt, long lastSeenAt, List<String> codeSessions) {

    public StoredMcpSession {
        codeSessions = List.copyOf(codeSessions);
    }
}
