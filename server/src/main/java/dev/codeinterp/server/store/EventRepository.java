package dev.codeinterp.server.store;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.wire.WireCodec;
import org.jooq.impl.DSL;

import java.util.List;

import static dev.codeinterp.server.store.generated.Tables.EVENTS;
import static dev.codeinterp.server.store.generated.Tables.SESSIONS;

/** Every event of every session, keyed by (session, seq), stored as its wire JSON. */
public final class EventRepository {
    private final Database db;

    public EventRepository(Database db) {
        this.db = db;
    }

    /**
     * Stores events, and what they say about their cells (queued, running, finished), in one
     * transaction through the writer: all of them or, when one cannot be stored, none. Returns when
     * it is committed.
     */
    public void record(String sessionId, List<SessionEvent> batch) {
        record(sessionId, batch, -1);
    }

    /**
     * As {@link #record(String, List)}, and with them, when {@code runnerLines >= 0}, how many of the
     * session's runner's lines are now stored (the events may be none: lines that said nothing to keep).
     */
    public void record(String sessionId, List<SessionEvent> batch, long runnerLines) {
        StoreWriter writer = db.writer();
        writer.write(ctx -> {
            for (SessionEvent e : batch) {
                append(writer, sessionId, e);
            }
            if (runnerLines >= 0) {
                writer.run(RUNNER_LINES, runnerLines, sessionId);
            }
        });
    }

    private static final PreparedWrite RUNNER_LINES = new PreparedWrite(ctx -> ctx.update(SESSIONS)
            .set(SESSIONS.SANDBOX_LINES, DSL.param(SESSIONS.SANDBOX_LINES)).where(SESSIONS.ID.eq(DSL.param(SESSIONS.ID))));

    private static void append(StoreWriter writer, String sessionId, SessionEvent e) {
        writer.run(APPEND, sessionId, e.seq(), e.executionId(), e.event().type().wire(), e.timestampMs(), WireCodec.encode(e));
        switch (e.event().type()) {
            case QUEUED:
                ExecutionRepository.insertQueued(writer, e.executionId(), sessionId, ((Event.Queued) e.event()).code(), e.timestampMs());
                break;
            case STARTED:
                ExecutionRepository.markRunning(writer, e.executionId(), ((Event.Started) e.event()).executionCount());
                break;
            case FINISHED:
                ExecutionRepository.markFinished(writer, e.executionId(), (Event.Finished) e.event(), e.timestampMs());
                break;
            default:
                break;
        }
    }

    private static final PreparedWrite APPEND = new PreparedWrite(ctx -> ctx.insertInto(EVENTS,
                    EVENTS.SESSION_ID, EVENTS.SEQ, EVENTS.EXECUTION_ID, EVENTS.TYPE, EVENTS.CREATED_AT, EVENTS.BODY)
            .values(DSL.param(EVENTS.SESSION_ID), DSL.param(EVENTS.SEQ), DSL.param(EVENTS.EXECUTION_ID),
                    DSL.param(EVENTS.TYPE), DSL.param(EVENTS.CREATED_AT), DSL.param(EVENTS.BODY)));

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
