package dev.codeinterp.server.store;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.wire.WireCodec;
import org.jooq.impl.DSL;

import java.util.ArrayList;
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
     * The write is then numbered from it without asking the row, and checks itself: the bump sets the
     * row's seq to null, which its column refuses, unless the row still says {@code lastSeqSeen}, and
     * events of a session the store does not have break their key to it. So it needs no answer before
     * its commit, and goes to PostgreSQL with it in one round trip ({@link StoreWriter#writeSteps}).
     * When another writer has stored events since, it is refused, and made again the slow way,
     * numbered from the row.
     */
    public List<SessionEvent> record(String sessionId, List<NewEvent> batch, long runnerLines, long lastSeqSeen) {
        StoreWriter writer = db.writer();
        Long lines = runnerLines >= 0 ? runnerLines : null;
        if (batch.isEmpty()) {
            if (lines != null) {
                writer.writeSteps(List.of(new StoreWriter.Step(RUNNER_LINES, lines, sessionId)));
            }
            return List.of();
        }
        if (lastSeqSeen != UNKNOWN) {
            List<SessionEvent> numbered = new ArrayList<>(batch.size());
            List<StoreWriter.Step> steps = new ArrayList<>();
            steps.add(new StoreWriter.Step(BUMP_LAST_SEQ_FROM, lastSeqSeen, (long) batch.size(), lines, sessionId));
            number(sessionId, batch, lastSeqSeen, numbered, steps);
            try {
                writer.writeSteps(steps);
                return numbered;
            } catch (WriteRefusedException e) {
                // numbered wrong (the row is past lastSeqSeen) or no such session: once more, from the row
            }
        }
        List<SessionEvent> numbered = new ArrayList<>(batch.size());
        writer.write(ctx -> {
            numbered.clear(); // the writer runs a write again when the database dropped its connection before the commit
            List<StoreWriter.Step> steps = new ArrayList<>();
            long last = writer.runForNumber(BUMP_LAST_SEQ, (long) batch.size(), lines, sessionId)
                    .orElseThrow(() -> new StoreException("no session " + sessionId, null));
            number(sessionId, batch, last - batch.size(), numbered, steps);
            writer.runAll(steps);
        });
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

    /**
     * As {@link #BUMP_LAST_SEQ} when the row is at the given seq (the first value); otherwise it sets the
     * seq to null, which the column refuses: the write fails in the database, with no answer to look at.
     */
    private static final PreparedWrite BUMP_LAST_SEQ_FROM = new PreparedWrite(ctx -> ctx.update(SESSIONS)
            .set(SESSIONS.LAST_SEQ, DSL.when(SESSIONS.LAST_SEQ.eq(DSL.param(SESSIONS.LAST_SEQ)),
                    SESSIONS.LAST_SEQ.plus(DSL.param(SESSIONS.LAST_SEQ))))
            .set(SESSIONS.SANDBOX_LINES, DSL.coalesce(DSL.param(SESSIONS.SANDBOX_LINES), SESSIONS.SANDBOX_LINES))
            .where(SESSIONS.ID.eq(DSL.param(SESSIONS.ID))));

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
