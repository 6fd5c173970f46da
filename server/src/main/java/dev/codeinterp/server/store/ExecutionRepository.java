package dev.codeinterp.server.store;

import dev.codeinterp.model.Event;
import org.jooq.impl.DSL;

import java.util.List;

import static dev.codeinterp.server.store.generated.Tables.EXECUTIONS;

/** Cells and how they ended. Written inside the same group as their events, through the writer's context. */
public final class ExecutionRepository {
    public static final String QUEUED = "queued";
    public static final String RUNNING = "running";

    private final Database db;

    public ExecutionRepository(Database db) {
        this.db = db;
    }

    static void insertQueued(StoreWriter writer, String id, String sessionId, String code, long now) {
        writer.run(INSERT_QUEUED, id, sessionId, code, QUEUED, now);
    }

    static void markRunning(StoreWriter writer, String id, long executionCount) {
        writer.run(MARK_RUNNING, RUNNING, executionCount, id);
    }

    static void markFinished(StoreWriter writer, String id, Event.Finished f, long now) {
        writer.run(MARK_FINISHED, f.status().wire(), now, f.durationMs(), f.cpuMs(), f.peakMemoryKb(), id);
    }

    private static final PreparedWrite INSERT_QUEUED = new PreparedWrite(ctx -> ctx.insertInto(EXECUTIONS,
                    EXECUTIONS.ID, EXECUTIONS.SESSION_ID, EXECUTIONS.CODE, EXECUTIONS.STATUS, EXECUTIONS.QUEUED_AT)
            .values(DSL.param(EXECUTIONS.ID), DSL.param(EXECUTIONS.SESSION_ID), DSL.param(EXECUTIONS.CODE),
                    DSL.param(EXECUTIONS.STATUS), DSL.param(EXECUTIONS.QUEUED_AT)));

    private static final PreparedWrite MARK_RUNNING = new PreparedWrite(ctx -> ctx.update(EXECUTIONS)
            .set(EXECUTIONS.STATUS, DSL.param(EXECUTIONS.STATUS))
            .set(EXECUTIONS.EXECUTION_COUNT, DSL.param(EXECUTIONS.EXECUTION_COUNT))
            .where(EXECUTIONS.ID.eq(DSL.param(EXECUTIONS.ID))));

    private static final PreparedWrite MARK_FINISHED = new PreparedWrite(ctx -> ctx.update(EXECUTIONS)
            .set(EXECUTIONS.STATUS, DSL.param(EXECUTIONS.STATUS))
            .set(EXECUTIONS.FINISHED_AT, DSL.param(EXECUTIONS.FINISHED_AT))
            .set(EXECUTIONS.DURATION_MS, DSL.param(EXECUTIONS.DURATION_MS))
            .set(EXECUTIONS.CPU_MS, DSL.param(EXECUTIONS.CPU_MS))
            .set(EXECUTIONS.PEAK_MEMORY_KB, DSL.param(EXECUTIONS.PEAK_MEMORY_KB))
            .where(EXECUTIONS.ID.eq(DSL.param(EXECUTIONS.ID))));

    /** Cells a previous process left queued or running: (session id, execution id) pairs. */
    public List<UnfinishedExecution> unfinished() {
        return db.read(ctx -> ctx.select(EXECUTIONS.SESSION_ID, EXECUTIONS.ID, EXECUTIONS.STATUS)
                .from(EXECUTIONS)
                .where(EXECUTIONS.STATUS.in(QUEUED, RUNNING))
                .orderBy(EXECUTIONS.QUEUED_AT)
                .fetch(r -> new UnfinishedExecution(r.value1(), r.value2(), RUNNING.equals(r.value3()))));
    }

    public record UnfinishedExecution(String sessionId, String executionId, boolean wasRunning) {
    }
}
