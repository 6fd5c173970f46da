package dev.codeinterp.server.store;

import dev.codeinterp.server.store.generated.tables.records.SessionsRecord;

import org.jooq.Condition;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static dev.codeinterp.server.store.generated.Tables.SESSIONS;

/**
 * Session rows. Scoped to a node, the questions a server asks about its own sessions (what to adopt,
 * what is suspended, which workspaces are kept) see only that node's: the others' are theirs.
 */
public final class SessionRepository {
    private final Database db;
    private final String node;

    /** Unscoped: every node's sessions (tools, tests of one store). */
    public SessionRepository(Database db) {
        this(db, null);
    }

    public SessionRepository(Database db, String node) {
        this.db = db;
        this.node = node;
    }

    /** The node whose sessions this repository's own-session questions see; null: every node's. */
    public String node() {
        return node;
    }

    /** Open rows of this node: never closed and not lost with a node. */
    private Condition mineOpen() {
        Condition open = SESSIONS.CLOSED_AT.isNull().and(SESSIONS.LOST.isNull());
        return node == null ? open : open.and(SESSIONS.NODE_ID.eq(node));
    }

    public void insert(StoredSession s) {
        insert(s, SessionQuota.NONE);
    }

    /** Inserts the row if {@code quota} leaves room for it, counted across every node; else {@link SessionQuota.Exceeded}. */
    public void insert(StoredSession s, SessionQuota quota) {
        db.writer().write(ctx -> {
            quota.check(ctx, s.client());
            insertRow(ctx, s);
        });
    }

    private static void insertRow(org.jooq.DSLContext ctx, StoredSession s) {
        ctx.insertInto(SESSIONS)
                .set(SESSIONS.ID, s.id())
                .set(SESSIONS.TOKEN_HASH, s.tokenHash())
                .set(SESSIONS.RUNTIME, s.runtime())
                .set(SESSIONS.ONE_SHOT, s.oneShot())
                .set(SESSIONS.CREATED_AT, s.createdAt())
                .set(SESSIONS.WORKSPACE, s.workspace())
                .set(SESSIONS.CLIENT, s.client())
                .set(SESSIONS.NODE_ID, s.node())
                .execute();
    }

    public Optional<StoredSession> find(String id) {
        return db.read(ctx -> ctx.selectFrom(SESSIONS).where(SESSIONS.ID.eq(id)).fetchOptional())
                .map(SessionRepository::toSession);
    }

    public void markClosed(String id, long now) {
        db.writer().write(ctx -> ctx.update(SESSIONS).set(SESSIONS.CLOSED_AT, now)
                .where(SESSIONS.ID.eq(id)).and(SESSIONS.CLOSED_AT.isNull()).execute());
    }

    public void setWorkspace(String id, String workspace) {
        db.writer().write(ctx -> ctx.update(SESSIONS).set(SESSIONS.WORKSPACE, workspace).where(SESSIONS.ID.eq(id)).execute());
    }

    /** The session's interpreter runs in {@code container} now, none of whose runner's lines is stored yet. */
    public void setSandbox(String id, String container) {
        db.writer().write(ctx -> ctx.update(SESSIONS).set(SESSIONS.SANDBOX, container).set(SESSIONS.SANDBOX_LINES, 0L)
                .where(SESSIONS.ID.eq(id)).execute());
    }

    /** Open sessions whose interpreter ran in a container when last seen: what a restarted server tries to adopt. */
    public List<StoredSession> openWithSandbox() {
        return db.read(ctx -> ctx.selectFrom(SESSIONS).where(mineOpen()).and(SESSIONS.SANDBOX.isNotNull())
                .fetch(SessionRepository::toSession));
    }

    /**
     * The session is suspended: its interpreter is the checkpoint {@code checkpoint} (or null: none
     * kept), its container gone; it was last used at {@code lastActiveAt}.
     */
    public void markSuspended(String id, String checkpoint, long checkpointBytes, long lastActiveAt, long now) {
        markSuspended(id, checkpoint, checkpointBytes, null, lastActiveAt, now);
    }

    /** As above; {@code variablesLost} says why no checkpoint was kept of an interpreter that ran (else null). */
    public void markSuspended(String id, String checkpoint, long checkpointBytes, String variablesLost, long lastActiveAt, long now) {
        db.writer().write(ctx -> ctx.update(SESSIONS).set(SESSIONS.SUSPENDED_AT, now).set(SESSIONS.LAST_ACTIVE_AT, lastActiveAt)
                .set(SESSIONS.CHECKPOINT, checkpoint).set(SESSIONS.CHECKPOINT_BYTES, checkpointBytes)
                .set(SESSIONS.VARIABLES_LOST, variablesLost).set(SESSIONS.SANDBOX, (String) null)
                .where(SESSIONS.ID.eq(id)).execute());
    }

    /**
     * Session {@code id}, suspended on node {@code from}, is this repository's node's from now on: one
     * conditional statement, so a session is handed over once, and never one that was closed, lost or
     * resumed meanwhile. False when it was not so.
     */
    public boolean takeOver(String id, String from) {
        java.util.concurrent.atomic.AtomicInteger changed = new java.util.concurrent.atomic.AtomicInteger();
        db.writer().write(ctx -> changed.set(ctx.update(SESSIONS).set(SESSIONS.NODE_ID, node)
                .where(SESSIONS.ID.eq(id)).and(SESSIONS.NODE_ID.eq(from)).and(SESSIONS.CLOSED_AT.isNull())
                .and(SESSIONS.LOST.isNull()).and(SESSIONS.SUSPENDED_AT.isNotNull()).execute()));
        return changed.get() == 1;
    }

    /** The ids of this node's open sessions, running or suspended: what a drain moves. */
    public List<String> openIds() {
        return db.read(ctx -> ctx.select(SESSIONS.ID).from(SESSIONS).where(mineOpen()).orderBy(SESSIONS.ID).fetch(SESSIONS.ID));
    }

    /**
     * The session runs again, in {@code container} (restored: its runner counts its lines on from
     * where it was, so the stored count stays), or in none yet (its variables were not kept).
     */
    public void markResumed(String id, String container) {
        db.writer().write(ctx -> ctx.update(SESSIONS).set(SESSIONS.SUSPENDED_AT, (Long) null)
                .set(SESSIONS.CHECKPOINT, (String) null).set(SESSIONS.CHECKPOINT_BYTES, 0L)
                .set(SESSIONS.VARIABLES_LOST, (String) null).set(SESSIONS.SANDBOX, container)
                .where(SESSIONS.ID.eq(id)).execute());
    }

    /** The suspended session's variables are given up (too old, or over the disk budget); files and history stay. */
    public void dropCheckpoint(String id, String why) {
        db.writer().write(ctx -> ctx.update(SESSIONS).set(SESSIONS.CHECKPOINT, (String) null).set(SESSIONS.CHECKPOINT_BYTES, 0L)
                .set(SESSIONS.VARIABLES_LOST, why)
                .where(SESSIONS.ID.eq(id)).and(SESSIONS.SUSPENDED_AT.isNotNull()).execute());
    }

    /** Every open suspended session, whatever it keeps. */
    public List<StoredSession> suspended() {
        return db.read(ctx -> ctx.selectFrom(SESSIONS).where(mineOpen()).and(SESSIONS.SUSPENDED_AT.isNotNull())
                .fetch(SessionRepository::toSession));
    }

    /** Open suspended sessions that keep a checkpoint, the longest suspended first: whose variables go first. */
    public List<StoredSession> suspendedWithCheckpoint() {
        return db.read(ctx -> ctx.selectFrom(SESSIONS).where(mineOpen()).and(SESSIONS.SUSPENDED_AT.isNotNull())
                .and(SESSIONS.CHECKPOINT.isNotNull()).orderBy(SESSIONS.SUSPENDED_AT, SESSIONS.ID)
                .fetch(SessionRepository::toSession));
    }

    /** Workspaces that belong to sessions still open: everything else under the workspaces folder is garbage. */
    public Set<String> openWorkspaces() {
        return db.read(ctx -> ctx.select(SESSIONS.WORKSPACE).from(SESSIONS)
                .where(mineOpen()).and(SESSIONS.WORKSPACE.isNotNull())
                .fetchSet(SESSIONS.WORKSPACE));
    }

    private static StoredSession toSession(SessionsRecord r) {
        return new StoredSession(r.getId(), r.getTokenHash(), r.getRuntime(), Boolean.TRUE.equals(r.getOneShot()),
                r.getCreatedAt(), r.getClosedAt(), r.getWorkspace(), r.getClient(), r.getSandbox(),
                r.getSandboxLines() == null ? 0 : r.getSandboxLines(),
                r.getSuspendedAt() == null ? null : new StoredSession.Suspension(r.getSuspendedAt(),
                        r.getLastActiveAt() == null ? r.getSuspendedAt() : r.getLastActiveAt(), r.getCheckpoint(),
                        r.getCheckpointBytes() == null ? 0 : r.getCheckpointBytes(), r.getVariablesLost()),
                r.getNodeId(), r.getLost());
    }
}
