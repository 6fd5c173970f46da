package dev.codeinterp.server.cluster;

import dev.codeinterp.server.config.NodeSettings;
import dev.codeinterp.server.store.McpSessionRepository;
import dev.codeinterp.server.store.NodeRepository;
import dev.codeinterp.server.store.StoredMcpSession;
import dev.codeinterp.server.store.StoredNode;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * The store's record of MCP protocol sessions, so that one outlives the process that began it: who
 * may use each, which node holds it, what its client sent in {@code initialize}, which code sessions
 * it made. It says where a request for an MCP session this process does not hold should go
 * ({@link #route}), and moves an MCP session's row with its code sessions when this node is drained.
 */
public final class McpSessionCatalog {
    /** An MCP session as stored; {@code clientCapabilities} and {@code clientInfo} are JSON. */
    public record Kept(String id, String client, String node, String protocolVersion, String clientCapabilities,
                       String clientInfo, long lastSeenAt, List<String> codeSessions) {
    }

    /** Where a request for a stored MCP session is served. */
    public sealed interface Route {
        /** This node holds it (or just took it over): begin the SDK's session again here. */
        record Here() implements Route {
        }

        /** Another live node holds it: send the request there. */
        record Elsewhere(String node, String url) implements Route {
        }

        /** Its node is stopped (restarting, say) and holds its code sessions: try again later. */
        record Away(String why) implements Route {
        }

        /** Its code sessions went with a lost node: the MCP session is over. */
        record Gone() implements Route {
        }
    }

    /**
     * The MCP layer's part in a move: runs {@code move} while the MCP session takes no request on this
     * node (those in flight done first), and forgets it here when {@code move} says it went.
     */
    @FunctionalInterface
    public interface Holder {
        boolean whileHeld(String mcpSessionId, BooleanSupplier move);
    }

    private final McpSessionRepository rows;
    private final NodeRepository nodes;
    private final NodeIdentity me;
    private final NodeSettings settings;
    private volatile Holder holder = (id, move) -> move.getAsBoolean();

    public McpSessionCatalog(McpSessionRepository rows, NodeRepository nodes, NodeIdentity me, NodeSettings settings) {
        this.rows = rows;
        this.nodes = nodes;
        this.me = me;
        this.settings = settings;
    }

    public String node() {
        return me.id();
    }

    /** The MCP layer, which holds the sessions this node serves; set once, when it starts. */
    public void heldBy(Holder holder) {
        this.holder = holder;
    }

    /** A new MCP session on this node, for {@code client}, with what its client sent in {@code initialize}. */
    public void begun(String id, String client, String protocolVersion, String clientCapabilities, String clientInfo, long now) {
        rows.insert(new StoredMcpSession(id, client, me.id(), protocolVersion, clientCapabilities, clientInfo, now, now, List.of()));
    }

    public void made(String mcpSessionId, String codeSessionId) {
        rows.addCodeSession(mcpSessionId, codeSessionId);
    }

    public void closed(String mcpSessionId, String codeSessionId) {
        rows.removeCodeSession(mcpSessionId, codeSessionId);
    }

    public void seen(String mcpSessionId, long at) {
        rows.seen(mcpSessionId, at);
    }

    public void ended(String mcpSessionId) {
        rows.delete(mcpSessionId);
    }

    public Optional<Kept> find(String id) {
        return rows.find(id).map(s -> new Kept(s.id(), s.client(), s.node(), s.protocolVersion(), s.clientCapabilities(),
                s.clientInfo(), s.lastSeenAt(), s.codeSessions()));
    }

    /** This node's MCP sessions not heard from since {@code before} (ms), held in memory or not. */
    public List<String> idleHere(long before) {
        return rows.idleOn(me.id(), before);
    }

    /**
     * Where {@code kept} is served: here if it is this node's; on its node if that one is live
     * (active or draining, heard within the loss timeout); here again if its node is gone (stopped,
     * lost, drained away) and none of its code sessions is open elsewhere, after taking its row in one
     * conditional write; otherwise later (its node holds its code sessions and is stopped) or never
     * (they were lost with it).
     */
    public Route route(Kept kept) {
        if (kept.node().equals(me.id())) {
            return new Route.Here();
        }
        StoredNode holder = nodes.find(kept.node()).orElse(null);
        long heardSince = System.currentTimeMillis() - settings.lossAfter().toMillis();
        if (holder != null && holder.takesRequests() && holder.heartbeatAt() >= heardSince && holder.url() != null) {
            return new Route.Elsewhere(holder.id(), holder.url());
        }
        if (rows.codeSessionsAway(kept.id(), me.id()) == 0) {
            if (rows.moveTo(kept.id(), kept.node(), me.id())) {
                return new Route.Here();
            }
            Kept now = find(kept.id()).orElse(null); // another node took it first
            return now == null ? new Route.Gone() : now.node().equals(me.id()) ? new Route.Here() : route(now);
        }
        if (holder != null && StoredNode.STOPPED.equals(holder.state())) {
            return new Route.Away("the node holding this MCP session (" + holder.id() + ") is stopped; try again once it is back");
        }
        return new Route.Gone();
    }

    /** This node's MCP sessions, each with its code sessions open here: what a drain moves together. */
    public Map<String, List<String>> bundlesHere() {
        return rows.onNode(me.id());
    }

    /**
     * Moves MCP session {@code id} to node {@code to}: {@code moveCodeSessions} moves its code
     * sessions open here (read once it takes no request: one made a moment ago goes too), and once all
     * are there its row follows (the last to arrive), all while it takes no request here. False when
     * it stays (in part) here; a later try finishes it.
     */
    public boolean move(String id, String to, Predicate<List<String>> moveCodeSessions) {
        return holder.whileHeld(id, () -> moveCodeSessions.test(rows.codeSessionsOn(id, me.id())) && rows.moveTo(id, me.id(), to));
    }

    /** Whether code session {@code codeSessionId} was made by an MCP session this node holds: it moves with that one. */
    public boolean madeByOneHere(String codeSessionId) {
        return rows.madeBy(codeSessionId).flatMap(rows::find).map(s -> s.node().equals(me.id())).orElse(false);
    }

    /**
     * A proof, for the node a request is forwarded to, that this node authenticated {@code client}
     * for MCP session {@code id}: without API keys a client is its address, which the next node
     * would otherwise see as this node's.
     */
    public String vouch(String id, String client) {
        return NodeProof.sign(me.keyHash(), vouched(id, client), System.currentTimeMillis());
    }

    /** Whether {@code proof} is node {@code from}'s {@link #vouch} for {@code client} and MCP session {@code id}. */
    public boolean vouchedBy(String from, String id, String client, String proof) {
        return from != null && !from.equals(me.id()) && client != null
                && NodeProof.verify(nodes, from, vouched(id, client), proof, System.currentTimeMillis());
    }

    private static String vouched(String id, String client) {
        return "mcp-client\n" + id + "\n" + client;
    }
}
