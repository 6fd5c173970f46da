package dev.codeinterp.server.store;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static dev.codeinterp.server.store.generated.Tables.NODES;
import static dev.codeinterp.server.store.generated.Tables.SESSIONS;

/**
 * The nodes sharing this store. Every change is one conditional statement, so several servers acting
 * at once (on PostgreSQL) agree without locks: a node's row changes hands only when its key matches
 * or it is lost, and of many nodes marking one lost exactly one succeeds and ends its sessions.
 */
public final class NodeRepository {
    private final Database db;

    public NodeRepository(Database db) {
        this.db = db;
    }

    /** What registering found: the row is this node's now, or it belongs to a live node with another key. */
    public enum Claim { NEW, OURS, TAKEN_OVER_LOST, REFUSED }

    /**
     * Registers {@code node} under {@code keyHash}: a new id is inserted; a row with the same key is
     * this node restarting and is taken back whatever its state; a lost node's row is taken over (its
     * sessions were marked lost with it). A live (or cleanly stopped) node of another key keeps its row.
     */
    public Claim register(StoredNode node, String keyHash) {
        AtomicReference<Claim> claim = new AtomicReference<>(Claim.REFUSED);
        db.writer().write(ctx -> {
            int inserted = ctx.insertInto(NODES)
                    .set(NODES.ID, node.id()).set(NODES.URL, node.url()).set(NODES.RUNTIME, node.runtime())
                    .set(NODES.CAPACITY, node.capacity()).set(NODES.SESSIONS, 0).set(NODES.KEY_HASH, keyHash)
                    .set(NODES.STATE, StoredNode.ACTIVE).set(NODES.STARTED_AT, node.startedAt())
                    .set(NODES.HEARTBEAT_AT, node.heartbeatAt())
                    .onConflictDoNothing().execute();
            if (inserted == 1) {
                claim.set(Claim.NEW);
                return;
            }
            var before = ctx.select(NODES.STATE, NODES.KEY_HASH).from(NODES).where(NODES.ID.eq(node.id())).fetchOne();
            int updated = ctx.update(NODES)
                    .set(NODES.URL, node.url()).set(NODES.RUNTIME, node.runtime()).set(NODES.CAPACITY, node.capacity())
                    .set(NODES.KEY_HASH, keyHash).set(NODES.STATE, StoredNode.ACTIVE)
                    .set(NODES.STARTED_AT, node.startedAt()).set(NODES.HEARTBEAT_AT, node.heartbeatAt())
                    .where(NODES.ID.eq(node.id()))
                    .and(NODES.KEY_HASH.eq(keyHash).or(NODES.STATE.eq(StoredNode.LOST)))
                    .execute();
            if (updated == 1) {
                claim.set(before != null && keyHash.equals(before.value2()) ? Claim.OURS : Claim.TAKEN_OVER_LOST);
            }
        });
        return claim.get();
    }

    /**
     * This node is alive at {@code url}, with {@code sessions} open and in {@code state}. False when its row is no
     * longer its own (another key took it) or it was marked lost meanwhile: it must then drop
     * everything it holds, which is the others' now or gone.
     */
    public boolean heartbeat(String id, String keyHash, String url, String state, int sessions, long now) {
        AtomicInteger updated = new AtomicInteger();
        db.writer().write(ctx -> updated.set(ctx.update(NODES).set(NODES.HEARTBEAT_AT, now).set(NODES.SESSIONS, sessions)
                .set(NODES.URL, url)
                .set(NODES.STATE, state)
                .where(NODES.ID.eq(id)).and(NODES.KEY_HASH.eq(keyHash)).and(NODES.STATE.ne(StoredNode.LOST))
                .execute()));
        return updated.get() == 1;
    }

    /** Every node known to the store, live or not. */
    public List<StoredNode> all() {
        return db.read(ctx -> ctx.selectFrom(NODES).orderBy(NODES.ID).fetch(NodeRepository::node));
    }

    public Optional<StoredNode> find(String id) {
        return db.read(ctx -> ctx.selectFrom(NODES).where(NODES.ID.eq(id)).fetchOptional(NodeRepository::node));
    }

    /** The SHA-256 of node {@code id}'s key, by which it proves itself to the others; empty for an unknown node. */
    public Optional<String> keyHash(String id) {
        return db.read(ctx -> ctx.select(NODES.KEY_HASH).from(NODES).where(NODES.ID.eq(id)).fetchOptional(NODES.KEY_HASH));
    }

    private static StoredNode node(org.jooq.Record r) {
        return new StoredNode(r.get(NODES.ID), r.get(NODES.URL), r.get(NODES.RUNTIME), r.get(NODES.CAPACITY), r.get(NODES.SESSIONS),
                r.get(NODES.STATE), r.get(NODES.STARTED_AT), r.get(NODES.HEARTBEAT_AT));
    }

    /**
     * Marks {@code id} lost if it is still active or draining and has not been heard from since
     * {@code silentSince}, and with it every session it had open ({@code why} is what their users are
     * told). True only for the one caller that made the change: it ends the lost sessions' cells.
     */
    public boolean markLost(String id, long silentSince, String why) {
        AtomicInteger changed = new AtomicInteger();
        db.writer().write(ctx -> {
            changed.set(ctx.update(NODES).set(NODES.STATE, StoredNode.LOST)
                    .where(NODES.ID.eq(id)).and(NODES.STATE.in(StoredNode.ACTIVE, StoredNode.DRAINING))
                    .and(NODES.HEARTBEAT_AT.lt(silentSince)).execute());
            if (changed.get() == 1) {
                ctx.update(SESSIONS).set(SESSIONS.LOST, why)
                        .where(SESSIONS.NODE_ID.eq(id)).and(SESSIONS.CLOSED_AT.isNull()).and(SESSIONS.LOST.isNull())
                        .execute();
            }
        });
        return changed.get() == 1;
    }

    /** A node leaving cleanly: its sessions stay its own (their sandboxes keep running) until it starts again. */
    public void markStopped(String id, String keyHash) {
        db.writer().write(ctx -> ctx.update(NODES).set(NODES.STATE, StoredNode.STOPPED)
                .where(NODES.ID.eq(id)).and(NODES.KEY_HASH.eq(keyHash)).and(NODES.STATE.ne(StoredNode.LOST)).execute());
    }

    /** Where an open session runs: its node's row as it is now, why the session is lost (else null), its token's hash. */
    public record Owner(StoredNode node, String sessionLost, String tokenHash, String client) {
    }

    public Optional<Owner> ownerOf(String sessionId) {
        return db.read(ctx -> ctx.select(NODES.asterisk(), SESSIONS.LOST, SESSIONS.TOKEN_HASH, SESSIONS.CLIENT).from(SESSIONS).join(NODES).on(NODES.ID.eq(SESSIONS.NODE_ID))
                .where(SESSIONS.ID.eq(sessionId)).and(SESSIONS.CLOSED_AT.isNull())
                .fetchOptional(r -> new Owner(node(r), r.get(SESSIONS.LOST), r.get(SESSIONS.TOKEN_HASH), r.get(SESSIONS.CLIENT))));
    }

    /** Sessions written before nodes existed (no node) become {@code id}'s: the first node to start on an old store. */
    public int adoptUnowned(String id) {
        AtomicInteger adopted = new AtomicInteger();
        db.writer().write(ctx -> adopted.set(ctx.update(SESSIONS).set(SESSIONS.NODE_ID, id)
                .where(SESSIONS.NODE_ID.isNull()).execute()));
        return adopted.get();
    }
}
