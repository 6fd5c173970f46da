package dev.codeinterp.server.store;

import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.wire.WireCodec;
import org.jooq.DSLContext;
import org.jooq.Record6;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static dev.codeinterp.server.store.generated.Tables.EVENTS;
import static dev.codeinterp.server.store.generated.Tables.EXECUTIONS;
import static dev.codeinterp.server.store.generated.Tables.SESSIONS;

/**
 * A fork's row in one transaction: the new session (under its source's title), a copy of its source's cells and events (the
 * history so far, under new cell ids, with the same numbers), and the sandbox it runs in. Either
 * all of it is stored or none: a fork never shows half a history.
 */
public final class SessionForks {
    /** Events copied a page at a time: a long history is never all in memory at once. */
    private static final int PAGE = 500;

    private final Database db;

    public SessionForks(Database db) {
        this.db = db;
    }

    /**
     * Stores {@code fork} as a copy of {@code source}'s history, running in {@code container}, whose
     * runner has written {@code sandboxLines} lines already (the source's, before the copy).
     * {@code executionIds} names the copied cells. Answers the fork's last event number.
     */
    public long insert(StoredSession fork, SessionQuota quota, String source, String container, long sandboxLines,
                       Supplier<String> executionIds) {
        long[] lastSeq = {0};
        db.writer().write(ctx -> {
            quota.check(ctx, fork.client());
            String title = ctx.select(SESSIONS.TITLE).from(SESSIONS).where(SESSIONS.ID.eq(source)).fetchOne(SESSIONS.TITLE);
            ctx.insertInto(SESSIONS)
                    .set(SESSIONS.ID, fork.id())
                    .set(SESSIONS.TOKEN_HASH, fork.tokenHash())
                    .set(SESSIONS.RUNTIME, fork.runtime())
                    .set(SESSIONS.ONE_SHOT, false)
                    .set(SESSIONS.CREATED_AT, fork.createdAt())
                    .set(SESSIONS.WORKSPACE, fork.workspace())
                    .set(SESSIONS.CLIENT, fork.client())
                    .set(SESSIONS.NODE_ID, fork.node())
                    .set(SESSIONS.SANDBOX, container)
                    .set(SESSIONS.SANDBOX_LINES, sandboxLines)
                    .set(SESSIONS.TITLE, title) // a fork goes on under its source's name
                    .execute();
            Map<String, String> cells = copyCells(ctx, source, fork.id(), executionIds);
            lastSeq[0] = copyEvents(ctx, source, fork.id(), cells);
            ctx.update(SESSIONS).set(SESSIONS.LAST_SEQ, lastSeq[0]).where(SESSIONS.ID.eq(fork.id())).execute();
        });
        return lastSeq[0];
    }

    /** The source's cells under new ids; answers old id → new id. */
    private static Map<String, String> copyCells(DSLContext ctx, String source, String fork, Supplier<String> executionIds) {
        Map<String, String> renamed = new HashMap<>();
        var rows = ctx.selectFrom(EXECUTIONS).where(EXECUTIONS.SESSION_ID.eq(source)).orderBy(EXECUTIONS.QUEUED_AT).fetch();
        for (var row : rows) {
            String id = executionIds.get();
            renamed.put(row.getId(), id);
            row.setId(id);
            row.setSessionId(fork);
            row.changed(true);
            ctx.insertInto(EXECUTIONS).set(row).execute();
        }
        return renamed;
    }

    /** The source's events with the same numbers, each naming its cell's new id (in its column and its body). */
    private static long copyEvents(DSLContext ctx, String source, String fork, Map<String, String> cells) {
        long after = 0;
        while (true) {
            List<Record6<Long, String, String, Long, String, String>> page = ctx
                    .select(EVENTS.SEQ, EVENTS.EXECUTION_ID, EVENTS.TYPE, EVENTS.CREATED_AT, EVENTS.BODY, EVENTS.SESSION_ID)
                    .from(EVENTS).where(EVENTS.SESSION_ID.eq(source)).and(EVENTS.SEQ.gt(after))
                    .orderBy(EVENTS.SEQ).limit(PAGE).fetch();
            if (page.isEmpty()) {
                return after;
            }
            var insert = ctx.insertInto(EVENTS, EVENTS.SESSION_ID, EVENTS.SEQ, EVENTS.EXECUTION_ID, EVENTS.TYPE,
                    EVENTS.CREATED_AT, EVENTS.BODY);
            for (var e : page) {
                String cell = cells.getOrDefault(e.value2(), e.value2());
                SessionEvent was = WireCodec.decodeSessionEvent(e.value5());
                String body = WireCodec.encode(new SessionEvent(was.seq(), cell, was.timestampMs(), was.event()));
                insert = insert.values(fork, e.value1(), cell, e.value3(), e.value4(), body);
                after = e.value1();
            }
            insert.execute();
        }
    }
}
