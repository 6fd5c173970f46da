package dev.codeinterp.server.store;

import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.impl.DSL;

import java.util.List;
import java.util.Optional;

import static dev.codeinterp.server.store.generated.Tables.EVENTS;
import static dev.codeinterp.server.store.generated.Tables.SESSIONS;

/**
 * Sessions as their owners find them again: each one's title, and a client's open sessions, the
 * most recently active first, a page at a time (keyset paging on activity and id, so no page costs
 * more than the first). Every node's sessions: the store is the one place that knows them all.
 */
public final class SessionDirectory {
    /**
     * When a session was last active, as stored: its newest event's time (the row's last_seq names
     * it), its last use before it was suspended, or its creation, whichever is latest.
     */
    private static final Field<Long> ACTIVITY = DSL.greatest(SESSIONS.CREATED_AT, DSL.coalesce(SESSIONS.LAST_ACTIVE_AT, 0L),
            DSL.coalesce(EVENTS.CREATED_AT, 0L));

    private final Database db;

    public SessionDirectory(Database db) {
        this.db = db;
    }

    /** One open session of a client's listing; {@code lost} says why it cannot be used any more, else null. */
    public record Listed(String id, String runtime, String title, long createdAt, long lastActive, boolean suspended, String lost) {
    }

    /** Where a page begins: after the session {@code id} last active at {@code lastActive}. */
    public record Cursor(long lastActive, String id) {
    }

    /** The session's title, or empty when none was set (or there is no such session). */
    public Optional<String> title(String id) {
        return db.read(ctx -> ctx.select(SESSIONS.TITLE).from(SESSIONS).where(SESSIONS.ID.eq(id)).fetchOptional(SESSIONS.TITLE));
    }

    /** Sets the session's title; null clears it. */
    public void setTitle(String id, String title) {
        db.writer().write(ctx -> ctx.update(SESSIONS).set(SESSIONS.TITLE, title).where(SESSIONS.ID.eq(id)).execute());
    }

    /**
     * At most {@code limit} of {@code client}'s open sessions (not closed, not one-shot; lost ones
     * included, their history stays readable), the most recently active first, after {@code after}
     * (null: from the newest).
     */
    public List<Listed> owned(String client, int limit, Cursor after) {
        Condition where = SESSIONS.CLIENT.eq(client).and(SESSIONS.CLOSED_AT.isNull()).and(SESSIONS.ONE_SHOT.isFalse());
        if (after != null) {
            where = where.and(ACTIVITY.lt(after.lastActive()).or(ACTIVITY.eq(after.lastActive()).and(SESSIONS.ID.lt(after.id()))));
        }
        Condition condition = where;
        return db.read(ctx -> ctx.select(SESSIONS.ID, SESSIONS.RUNTIME, SESSIONS.TITLE, SESSIONS.CREATED_AT, ACTIVITY,
                        SESSIONS.SUSPENDED_AT, SESSIONS.LOST)
                .from(SESSIONS).leftJoin(EVENTS).on(EVENTS.SESSION_ID.eq(SESSIONS.ID)).and(EVENTS.SEQ.eq(SESSIONS.LAST_SEQ))
                .where(condition).orderBy(ACTIVITY.desc(), SESSIONS.ID.desc()).limit(limit)
                .fetch(r -> new Listed(r.value1(), r.value2(), r.value3(), r.value4(), r.value5(), r.value6() != null, r.value7())));
    }
}
