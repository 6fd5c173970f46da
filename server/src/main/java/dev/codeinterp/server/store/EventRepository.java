package dev.codeinterp.server.store;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.wire.WireCodec;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static dev.codeinterp.server.store.generated.Tables.EVENTS;
import static dev.codeinterp.server.store.generated.Tables.SESSIONS;

/** Every event of every session, keyed by (session, seq), stored as its wire JSON. */
public final class EventRepository {
    private final Database db;

    public EventRepository(Database db) {
        this.db = db;
    }

    /**
     * Numbers and stores events, and what they say about their cells (queued, running, finished), in
     * one transaction through the writer: all of them or, when one cannot be stored, none. Returns
     * them numbered, once committed.
     *
     * <p>The numbers come from the session row's {@code last_seq}, bumped by the batch's size first
     * thing in the transaction. That update holds the row's lock until the commit, so writers of one
     * session, however many (several servers sharing one PostgreSQL), number their batches one after
     * the other, each from where the last committed one ended; a write that fails rolls the bump back
     * with it. So seq is ordered and has no gap, and an event is numbered only in the transaction
     * that stores it. SQLite's one writer would give this alone; the row makes it hold on PostgreSQL
     * too, with the same code.
     */
    public List<SessionEvent> record(String sessionId, List<NewEvent> batch) {
        return record(sessionId, batch, -1, UNKNOWN);
    }

    /** The session's last seq is not known to the caller: the write asks the row for it. */
    public static final long UNKNOWN = -1;

    /**
     * As {@link #record(String, List)}, and with them, when {@code runnerLines >= 0}, how many of the
     * session's runner's lines are now stored (the events may be none: lines that said nothing to keep).
     *
     * <p>{@code lastSeqSeen} is the session's last seq as this caller last stored it (or {@link #UNKNOWN}).
     * The bump then only takes when the row still says so, and the whole write goes to the database
     * at once (one round trip to PostgreSQL, where asking for the numbers first is a second); when
     * another writer has stored events since, the bump takes no row, the write is rolled back and
     * made again the slow way, numbered from the row.
     */
    public List<SessionEvent> record(String sessionId, List<NewEvent> batch, long runnerLines, long lastSeqSeen) {
        StoreWriter writer = db.writer();
        List<SessionEvent> numbered = new ArrayList<>(batch.size());
        boolean[] askRow = {lastSeqSeen == UNKNOWN};
        boolean[] guessFailed = {false};
        Consumer<DSLContext> work = ctx -> {
            numbered.clear(); // the writer runs a write again when the database dropped its connection before the commit
            if (batch.isEmpty()) {
                if (runnerLines >= 0) {
                    writer.run(RUNNER_LINES, runnerLines, sessionId);
                }
                return;
            }
            Long lines = runnerLines >= 0 ? runnerLines : null;
            List<StoreWriter.Step> steps = new ArrayList<>();
            if (askRow[0]) {
                long last = writer.runForNumber(BUMP_LAST_SEQ, (long) batch.size(), lines, sessionId)
                        .orElseThrow(() -> new StoreException("no session " + sessionId, null));
                number(sessionId, batch, last - batch.size(), numbered, steps);
                writer.runAll(steps);
                return;
            }
            steps.add(new StoreWriter.Step(BUMP_LAST_SEQ_FROM, (long) batch.size(), lines, sessionId, lastSeqSeen));
            number(sessionId, batch, lastSeqSeen, numbered, steps);
            try {
                if (writer.runAll(steps)[0] != 1) {
                    throw new StoreException("session " + sessionId + " is not at seq " + lastSeqSeen, null);
                }
            } catch (StoreException e) {
                // numbered wrong (its events may have hit stored ones' keys) or no such session: once more, from the row
                guessFailed[0] = true;
                askRow[0] = true;
                throw e;
            }
        };
        try {
            writer.write(work);
        } catch (StoreException e) {
            if (!guessFailed[0]) {
                throw e;
            }
            guessFailed[0] = false;
            writer.write(work);
        }
        return numbered;
    }

    /** Numbers the batch from {@code after}, into {@code numbered}, and adds the steps that store it. */
    private static void number(String sessionId, List<NewEvent> batch, long after, List<SessionEvent> numbered,
                               List<StoreWriter.Step> steps) {
        long seq = after;
        for (NewEvent e : batch) {
            SessionEvent n = new SessionEvent(++seq, e.executionId(), e.timestampMs(), e.event());
            steps.add(new StoreWriter.Step(APPEND, sessionId, n.seq(), n.executionId(), n.event().type().wire(), n.timestampMs(),
                    WireCodec.encode(n)));
            numbered.add(n);
        }
        ExecutionRepository.follow(steps, sessionId, numbered);
    }

    /** Takes the batch's numbers and, when {@code sandbox_lines} is given (not null), stores it too. */
    private static final PreparedWrite BUMP_LAST_SEQ = new PreparedWrite(ctx -> ctx.update(SESSIONS)
            .set(SESSIONS.LAST_SEQ, SESSIONS.LAST_SEQ.plus(DSL.param(SESSIONS.LAST_SEQ)))
            .set(SESSIONS.SANDBOX_LINES, DSL.coalesce(DSL.param(SESSIONS.SANDBOX_LINES), SESSIONS.SANDBOX_LINES))
            .where(SESSIONS.ID.eq(DSL.param(SESSIONS.ID)))
            .returning(SESSIONS.LAST_SEQ));

    /** As {@link #BUMP_LAST_SEQ}, only when the row is at the given seq, and answering how many rows took it. */
    private static final PreparedWrite BUMP_LAST_SEQ_FROM = new PreparedWrite(ctx -> ctx.update(SESSIONS)
            .set(SESSIONS.LAST_SEQ, SESSIONS.LAST_SEQ.plus(DSL.param(SESSIONS.LAST_SEQ)))
            .set(SESSIONS.SANDBOX_LINES, DSL.coalesce(DSL.param(SESSIONS.SANDBOX_LINES), SESSIONS.SANDBOX_LINES))
            .where(SESSIONS.ID.eq(DSL.param(SESSIONS.ID)))
            .and(SESSIONS.LAST_SEQ.eq(DSL.param(SESSIONS.LAST_SEQ))));

    private static final PreparedWrite RUNNER_LINES = new PreparedWrite(ctx -> ctx.update(SESSIONS)
            .set(SESSIONS.SANDBOX_LINES, DSL.param(SESSIONS.SANDBOX_LINES)).where(SESSIONS.ID.eq(DSL.param(SESSIONS.ID))));

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
