package dev.codeinterp.server.store;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import org.jooq.impl.DSL;

import java.util.List;

import static dev.codeinterp.server.store.generated.Tables.EXECUTIONS;
import static dev.codeinterp.server.store.generated.Tables.SESSIONS;

/** Cells and how they ended. Written inside the same group as their events, through the writer's context. */
public final class ExecutionRepository {
    public static final String QUEUED = "queued";
    public static final String RUNNING = "running";

    private final Database db;

    public ExecutionRepository(Database db) {
        this.db = db;
    }

    /**
     * The steps that store what {@code stored} (one write's events, in order) say about their cells: queued adds the
     * cell's row, started and finished update it. A cell that starts and finishes within the
     * write (a quick cell's output arrives as one run) is updated once, not twice: one round trip
     * to PostgreSQL fewer per cell.
     */
    static void follow(List<StoreWriter.Step> steps, String sessionId, List<SessionEvent> stored) {
        for (int i = 0; i < stored.size(); i++) {
            SessionEvent e = stored.get(i);
            switch (e.event().type()) {
                case QUEUED -> steps.add(new StoreWriter.Step(INSERT_QUEUED, e.executionId(), sessionId,
                        ((Event.Queued) e.event()).code(), QUEUED, e.timestampMs()));
                case STARTED -> {
                    if (!finishesLater(stored, i)) {
                        steps.add(new StoreWriter.Step(MARK_RUNNING, RUNNING, ((Event.Started) e.event()).executionCount(), e.executionId()));
                    }
                }
                case FINISHED -> {
                    Event.Finished f = (Event.Finished) e.event();
                    steps.add(new StoreWriter.Step(MARK_FINISHED, f.status().wire(), startedBefore(stored, i), e.timestampMs(),
                            f.durationMs(), f.cpuMs(), f.peakMemoryKb(), e.executionId()));
                }
                default -> { }
            }
        }
    }

    /** Whether the cell of {@code stored[i]} finishes later in the same write. */
    private static boolean finishesLater(List<SessionEvent> stored, int i) {
        String cell = stored.get(i).executionId();
        for (int j = i + 1; j < stored.size(); j++) {
            if (stored.get(j).event() instanceof Event.Finished && cell.equals(stored.get(j).executionId())) {
                return true;
            }
        }
        return false;
    }

    /** The execution count of the cell of {@code stored[i]} when it started earlier in the same write; null otherwise (the row has it). */
    private static Long startedBefore(List<SessionEvent> stored, int i) {
        String cell = stored.get(i).executionId();
        for (int j = i - 1; j >= 0; j--) {
            if (stored.get(j).event() instanceof Event.Started started && cell.equals(stored.get(j).executionId())) {
                return started.executionCount();
            }
        }
        return null;
    }

    private static final PreparedWrite INSERT_QUEUED = new PreparedWrite(ctx -> ctx.insertInto(EXECUTIONS,
                    EXECUTIONS.ID, EXECUTIONS.SESSION_ID, EXECUTIONS.CODE, EXECUTIONS.STATUS, EXECUTIONS.QUEUED_AT)
            .values(DSL.param(EXECUTIONS.ID), DSL.param(EXECUTIONS.SESSION_ID), DSL.param(EXECUTIONS.CODE),
                    DSL.param(EXECUTIONS.STATUS), DSL.param(EXECUTIONS.QUEUED_AT)));

    private static final PreparedWrite MARK_RUNNING = new PreparedWrite(ctx -> ctx.update(EXECUTIONS)
            .set(EXECUTIONS.STATUS, DSL.param(EXECUTIONS.STATUS))
            .set(EXECUTIONS.EXECUTION_COUNT, DSL.param(EXECUTIONS.EXECUTION_COUNT))
            .where(EXECUTIONS.ID.eq(DSL.param(EXECUTIONS.ID))));

    /** The execution count is set too when given (the cell started in the same write), kept otherwise. */
    private static final PreparedWrite MARK_FINISHED = new PreparedWrite(ctx -> ctx.update(EXECUTIONS)
            .set(EXECUTIONS.STATUS, DSL.param(EXECUTIONS.STATUS))
            .set(EXECUTIONS.EXECUTION_COUNT, DSL.coalesce(DSL.param(EXECUTIONS.EXECUTION_COUNT), EXECUTIONS.EXECUTION_COUNT))
            .set(EXECUTIONS.FINISHED_AT, DSL.param(EXECUTIONS.FINISHED_AT))
            .set(EXECUTIONS.DURATION_MS, DSL.param(EXECUTIONS.DURATION_MS))
            .set(EXECUTIONS.CPU_MS, DSL.param(EXECUTIONS.CPU_MS))
            .set(EXECUTIONS.PEAK_MEMORY_KB, DSL.param(EXECUTIONS.PEAK_MEMORY_KB))
            .where(EXECUTIONS.ID.eq(DSL.param(EXECUTIONS.ID))));

    /**
     * Cells left queued or running in sessions of {@code node} (every node's when null): a previous
     * process of that node left them, or the node was lost. (session id, execution id) pairs.
     */
    public List<UnfinishedExecution> unfinished(String node) {
        return db.read(ctx -> ctx.select(EXECUTIONS.SESSION_ID, EXECUTIONS.ID, EXECUTIONS.STATUS)
                .from(EXECUTIONS)
                .where(EXECUTIONS.STATUS.in(QUEUED, RUNNING))
                .and(node == null ? DSL.noCondition()
                        : EXECUTIONS.SESSION_ID.in(DSL.select(SESSIONS.ID).from(SESSIONS).where(SESSIONS.NODE_ID.eq(node))))
                .orderBy(EXECUTIONS.QUEUED_AT)
                .fetch(r -> new UnfinishedExecution(r.value1(), r.value2(), RUNNING.equals(r.value3()))));
    }

    public record UnfinishedExecution(String sessionId, String executionId, boolean wasRunning) {
    }
}
