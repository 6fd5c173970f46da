package dev.codeinterp.server.store;

import dev.codeinterp.model.Event;
import org.jooq.DSLContext;

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

    static void insertQueued(DSLContext ctx, String id, String sessionId, String code, long now) {
        ctx.insertInto(EXECUTIONS)
                .set(EXECUTIONS.ID, id)
                .set(EXECUTIONS.SESSION_ID, sessionId)
                .set(EXECUTIONS.CODE, code)
                .set(EXECUTIONS.STATUS, QUEUED)
                .set(EXECUTIONS.QUEUED_AT, now)
                .execute();
    }

    static void markRunning(DSLContext ctx, String id, long executionCount) {
        ctx.update(EXECUTIONS).set(EXECUTIONS.STATUS, RUNNING).set(EXECUTIONS.EXECUTION_COUNT, executionCount)
                .where(EXECUTIONS.ID.eq(id)).execute();
    }

    static void markFinished(DSLContext ctx, String id, Event.Finished f, long now) {
        ctx.update(EXECUTIONS)
                .set(EXECUTIONS.STATUS, f.status().wire())
                .set(EXECUTIONS.FINISHED_AT, now)
                .set(EXECUTIONS.DURATION_MS, f.durationMs())
                .set(EXECUTIONS.CPU_MS, f.cpuMs())
                .set(EXECUTIONS.PEAK_MEMORY_KB, f.peakMemoryKb())
                .where(EXECUTIONS.ID.eq(id)).execute();
    }

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
