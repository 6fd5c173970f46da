package dev.codeinterp.server.store;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.WireCodec;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

import java.util.List;

import static dev.codeinterp.server.store.generated.Tables.EVENTS;

/** Every event of every session, keyed by (session, seq), stored as its wire JSON. */
public final class EventRepository {
    private final Database db;

    public EventRepository(Database db) {
        this.db = db;
    }

    /**
     * Stores an event, and what it says about its cell (queued, running, finished), in one
     * transaction through the writer. Returns when it is committed.
     */
    public void record(String sessionId, SessionEvent e) {
        db.writer().write(ctx -> {
            append(ctx, sessionId, e);
            switch (e.event().type()) {
                case QUEUED:
                    ExecutionRepository.insertQueued(ctx, e.executionId(), sessionId, ((Event.Queued) e.event()).code(), e.timestampMs());
                    break;
                case STARTED:
                    ExecutionRepository.markRunning(ctx, e.executionId(), ((Event.Started) e.event()).executionCount());
                    break;
                case FINISHED:
                    ExecutionRepository.markFinished(ctx, e.executionId(), (Event.Finished) e.event(), e.timestampMs());
                    break;
                default:
                    break;
            }
        });
    }

    private static void append(DSLContext ctx, String sessionId, SessionEvent e) {
        ctx.insertInto(EVENTS)
                .set(EVENTS.SESSION_ID, sessionId)
                .set(EVENTS.SEQ, e.seq())
                .set(EVENTS.EXECUTION_ID, e.executionId())
                .set(EVENTS.TYPE, e.event().type().wire())
                .set(EVENTS.CREATED_AT, e.timestampMs())
                .set(EVENTS.BODY, WireCodec.encode(e))
                .execute();
    }

    /** Events with seq greater than {@code afterSeq}, oldest first, at most {@code limit}. */
    public List<SessionEvent> after(String sessionId, long afterSeq, int limit) {
        return db.read(ctx -> ctx.select(EVENTS.BODY).from(EVENTS)
                .where(EVENTS.SESSION_ID.eq(sessionId)).and(EVENTS.SEQ.gt(afterSeq))
                .orderBy(EVENTS.SEQ).limit(limit)
                .fetch(r -> WireCodec.decodeSessionEvent(r.value1())));
    }

    public long lastSeq(String sessionId) {
        Long max = db.read(ctx -> ctx.select(DSL.max(EVENTS.SEQ)).from(EVENTS).where(EVENTS.SESSION_ID.eq(sessionId)).fetchOne(0, Long.class));
        return max == null ? 0 : max;
    }
}
