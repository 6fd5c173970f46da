package dev.codeinterp.server.store;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.codeinterp.server.store.generated.Tables.MCP_SESSIONS;
import static dev.codeinterp.server.store.generated.Tables.MCP_SESSION_CODE_SESSIONS;
import static dev.codeinterp.server.store.generated.Tables.SESSIONS;

/**
 * MCP protocol sessions and the code sessions each made. A row changes node in one conditional
 * statement ({@link #moveTo}), so an MCP session is held by one node at a time.
 */
public final class McpSessionRepository {
    private final Database db;

    public McpSessionRepository(Database db) {
        this.db = db;
    }

    public void insert(StoredMcpSession s) {
        db.writer().write(ctx -> ctx.insertInto(MCP_SESSIONS)
                .set(MCP_SESSIONS.ID, s.id()).set(MCP_SESSIONS.CLIENT, s.client()).set(MCP_SESSIONS.NODE_ID, s.node())
                .set(MCP_SESSIONS.PROTOCOL_VERSION, s.protocolVersion())
                .set(MCP_SESSIONS.CLIENT_CAPABILITIES, s.clientCapabilities()).set(MCP_SESSIONS.CLIENT_INFO, s.clientInfo())
                .set(MCP_SESSIONS.CREATED_AT, s.createdAt()).set(MCP_SESSIONS.LAST_SEEN_AT, s.lastSeenAt())
                .execute());
    }

    public Optional<StoredMcpSession> find(String id) {
        return db.read(ctx -> {
            var row = ctx.selectFrom(MCP_SESSIONS).where(MCP_SESSIONS.ID.eq(id)).fetchOne();
            if (row == null) {
                return Optional.empty();
            }
            List<String> code = ctx.select(MCP_SESSION_CODE_SESSIONS.SESSION_ID).from(MCP_SESSION_CODE_SESSIONS)
                    .where(MCP_SESSION_CODE_SESSIONS.MCP_SESSION_ID.eq(id)).orderBy(MCP_SESSION_CODE_SESSIONS.SESSION_ID)
                    .fetch(MCP_SESSION_CODE_SESSIONS.SESSION_ID);
            return Optional.of(new StoredMcpSession(row.getId(), row.getClient(), row.getNodeId(), row.getProtocolVersion(),
                    row.getClientCapabilities(), row.getClientInfo(), row.getCreatedAt(), row.getLastSeenAt(), code));
        });
    }

    /** The MCP session that made code session {@code codeSessionId}, if an MCP session did. */
    public Optional<String> madeBy(String codeSessionId) {
        return db.read(ctx -> ctx.select(MCP_SESSION_CODE_SESSIONS.MCP_SESSION_ID).from(MCP_SESSION_CODE_SESSIONS)
                .where(MCP_SESSION_CODE_SESSIONS.SESSION_ID.eq(codeSessionId)).limit(1)
                .fetchOptional(MCP_SESSION_CODE_SESSIONS.MCP_SESSION_ID));
    }

    /** Ids of node {@code node}'s MCP sessions last heard from before {@code before} (ms): idle ones. */
    public List<String> idleOn(String node, long before) {
        return db.read(ctx -> ctx.select(MCP_SESSIONS.ID).from(MCP_SESSIONS)
                .where(MCP_SESSIONS.NODE_ID.eq(node)).and(MCP_SESSIONS.LAST_SEEN_AT.lt(before))
                .fetch(MCP_SESSIONS.ID));
    }

    public void addCodeSession(String mcpSessionId, String codeSessionId) {
        db.writer().write(ctx -> ctx.insertInto(MCP_SESSION_CODE_SESSIONS)
                .set(MCP_SESSION_CODE_SESSIONS.MCP_SESSION_ID, mcpSessionId)
                .set(MCP_SESSION_CODE_SESSIONS.SESSION_ID, codeSessionId)
                .onConflictDoNothing().execute());
    }

    public void removeCodeSession(String mcpSessionId, String codeSessionId) {
        db.writer().write(ctx -> ctx.deleteFrom(MCP_SESSION_CODE_SESSIONS)
                .where(MCP_SESSION_CODE_SESSIONS.MCP_SESSION_ID.eq(mcpSessionId))
                .and(MCP_SESSION_CODE_SESSIONS.SESSION_ID.eq(codeSessionId)).execute());
    }

    public void seen(String id, long at) {
        db.writer().write(ctx -> ctx.update(MCP_SESSIONS).set(MCP_SESSIONS.LAST_SEEN_AT, at)
                .where(MCP_SESSIONS.ID.eq(id)).and(MCP_SESSIONS.LAST_SEEN_AT.lt(at)).execute());
    }

    /** The MCP session is over: its row and its list of code sessions go. */
    public void delete(String id) {
        db.writer().write(ctx -> {
            ctx.deleteFrom(MCP_SESSION_CODE_SESSIONS).where(MCP_SESSION_CODE_SESSIONS.MCP_SESSION_ID.eq(id)).execute();
            ctx.deleteFrom(MCP_SESSIONS).where(MCP_SESSIONS.ID.eq(id)).execute();
        });
    }

    /** Node {@code from} hands MCP session {@code id} to node {@code to} (a drain); false when it was not {@code from}'s. */
    public boolean moveTo(String id, String from, String to) {
        AtomicInteger changed = new AtomicInteger();
        db.writer().write(ctx -> changed.set(ctx.update(MCP_SESSIONS).set(MCP_SESSIONS.NODE_ID, to)
                .where(MCP_SESSIONS.ID.eq(id)).and(MCP_SESSIONS.NODE_ID.eq(from)).execute()));
        return changed.get() == 1;
    }

    /** How many of MCP session {@code id}'s code sessions are open on a node other than {@code node} (or lost). */
    public int codeSessionsAway(String id, String node) {
        return db.read(ctx -> ctx.selectCount().from(MCP_SESSION_CODE_SESSIONS)
                .join(SESSIONS).on(SESSIONS.ID.eq(MCP_SESSION_CODE_SESSIONS.SESSION_ID))
                .where(MCP_SESSION_CODE_SESSIONS.MCP_SESSION_ID.eq(id)).and(SESSIONS.CLOSED_AT.isNull())
                .and(SESSIONS.LOST.isNotNull().or(SESSIONS.NODE_ID.ne(node)))
                .fetchOne(0, int.class));
    }

    /** MCP session {@code id}'s code sessions that are open on node {@code node}. */
    public List<String> codeSessionsOn(String id, String node) {
        return db.read(ctx -> ctx.select(MCP_SESSION_CODE_SESSIONS.SESSION_ID).from(MCP_SESSION_CODE_SESSIONS)
                .join(SESSIONS).on(SESSIONS.ID.eq(MCP_SESSION_CODE_SESSIONS.SESSION_ID))
                .where(MCP_SESSION_CODE_SESSIONS.MCP_SESSION_ID.eq(id)).and(SESSIONS.NODE_ID.eq(node))
                .and(SESSIONS.CLOSED_AT.isNull()).and(SESSIONS.LOST.isNull())
                .orderBy(MCP_SESSION_CODE_SESSIONS.SESSION_ID).fetch(MCP_SESSION_CODE_SESSIONS.SESSION_ID));
    }

    /**
     * Node {@code node}'s MCP sessions, each with those of its code sessions that are open on that
     * node (a drain moves them together): MCP session id to code session ids, possibly none.
     */
    public java.util.Map<String, List<String>> onNode(String node) {
        return db.read(ctx -> {
            java.util.Map<String, List<String>> out = new java.util.TreeMap<>();
            for (String id : ctx.select(MCP_SESSIONS.ID).from(MCP_SESSIONS).where(MCP_SESSIONS.NODE_ID.eq(node)).fetch(MCP_SESSIONS.ID)) {
                out.put(id, new java.util.ArrayList<>());
            }
            ctx.select(MCP_SESSION_CODE_SESSIONS.MCP_SESSION_ID, MCP_SESSION_CODE_SESSIONS.SESSION_ID).from(MCP_SESSION_CODE_SESSIONS)
                    .join(MCP_SESSIONS).on(MCP_SESSIONS.ID.eq(MCP_SESSION_CODE_SESSIONS.MCP_SESSION_ID))
                    .join(SESSIONS).on(SESSIONS.ID.eq(MCP_SESSION_CODE_SESSIONS.SESSION_ID))
                    .where(MCP_SESSIONS.NODE_ID.eq(node)).and(SESSIONS.NODE_ID.eq(node))
                    .and(SESSIONS.CLOSED_AT.isNull()).and(SESSIONS.LOST.isNull())
                    .orderBy(MCP_SESSION_CODE_SESSIONS.SESSION_ID)
                    .forEach(r -> out.computeIfAbsent(r.value1(), k -> new java.util.ArrayList<>()).add(r.value2()));
            return out;
        });
    }
}
