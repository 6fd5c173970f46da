package dev.codeinterp.server.store;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.jooq.impl.DSL;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import static dev.codeinterp.server.store.generated.Tables.EVENTS;
import static dev.codeinterp.server.store.generated.Tables.EXECUTIONS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The real store (SQLite's file, or PostgreSQL in test.sh's second pass, see {@link TestStores}): a
 * cell's events and its row, written through the one writer by many sessions at once.
 */
class EventStoreTest {
    @TempDir
    Path dir;
    private Database db;
    private EventRepository events;

    @BeforeEach
    void open() {
        db = TestStores.open(dir);
        events = new EventRepository(db);
    }

    @AfterEach
    void close() {
        db.close();
    }

    /** One event stored alone, as an event the worker emits outside a run of output is; returns its seq. */
    private long record(String sessionId, String executionId, long at, Event e) {
        return events.record(sessionId, List.of(new NewEvent(executionId, at, e))).get(0).seq();
    }

    private void session(String id) {
        new SessionRepository(db).insert(new StoredSession(id, "hash", "runc", false, 1L, null, null, "test"));
    }

    @Test
    void a_cell_is_stored_as_its_events_and_one_row_that_follows_it_from_queued_to_finished() {
        session("s1");
        assertThat(record("s1", "c1", 100, new Event.Queued("print('hi')", Language.PYTHON))).isEqualTo(1L);
        assertThat(row("c1").getStatus()).isEqualTo("queued");
        record("s1", "c1", 101, new Event.Started(7));
        assertThat(row("c1").getStatus()).isEqualTo("running");
        assertThat(row("c1").getExecutionCount()).isEqualTo(7L);
        record("s1", "c1", 102, new Event.Stream(StreamName.STDOUT, "hi\n"));
        assertThat(record("s1", "c1", 103, new Event.Finished(Status.OK, 7L, 12L, null, 2048L))).isEqualTo(4L);

        var done = row("c1");
        assertThat(done.getStatus()).isEqualTo("ok");
        assertThat(done.getFinishedAt()).isEqualTo(103L);
        assertThat(done.getDurationMs()).isEqualTo(12L);
        assertThat(done.getCpuMs()).as("a figure the runner did not give stays empty").isNull();
        assertThat(done.getPeakMemoryKb()).isEqualTo(2048L);
        assertThat(done.getCode()).isEqualTo("print('hi')");
        assertThat(events.after("s1", 0, 10)).extracting(SessionEvent::seq).containsExactly(1L, 2L, 3L, 4L);
        assertThat(events.after("s1", 2, 10).get(0).event()).isEqualTo(new Event.Stream(StreamName.STDOUT, "hi\n"));
    }

    @Test
    void events_stored_together_are_all_kept_or_when_one_cannot_be_none_is_and_their_numbers_go_back() {
        session("s1");
        record("s1", "c1", 100, new Event.Queued("1 + 1", Language.PYTHON));
        List<SessionEvent> stored = events.record("s1", List.of(
                new NewEvent("c1", 101, new Event.Started(1)),
                new NewEvent("c1", 101, new Event.ExecuteResult(1, java.util.Map.of("text/plain", "2"), java.util.Map.of())),
                new NewEvent("c1", 101, new Event.Finished(Status.OK, 1L, 1L, 0L, 2048L))));
        assertThat(stored).extracting(SessionEvent::seq).containsExactly(2L, 3L, 4L);
        assertThat(row("c1").getStatus()).isEqualTo("ok");
        assertThat(events.after("s1", 0, 10)).extracting(SessionEvent::seq).containsExactly(1L, 2L, 3L, 4L);

        record("s1", "c2", 102, new Event.Queued("2", Language.PYTHON));
        assertThatThrownBy(() -> events.record("s1", List.of(
                new NewEvent("c2", 103, new Event.Started(2)),
                new NewEvent("c1", 103, new Event.Queued("c1 again", Language.PYTHON))))) // c1's row exists
                .isInstanceOf(RuntimeException.class);
        assertThat(row("c2").getStatus()).as("the started of the failed write is not kept either").isEqualTo("queued");
        assertThat(events.lastSeq("s1")).isEqualTo(5L);
        assertThat(record("s1", "c2", 104, new Event.Started(2))).as("the failed write's numbers were taken back").isEqualTo(6L);
    }

    @Test
    void a_write_numbered_from_the_last_seq_its_caller_saw_is_numbered_from_the_row_when_that_is_stale() {
        session("s1");
        List<SessionEvent> first = events.record("s1", List.of(new NewEvent("c1", 100, new Event.Queued("1", Language.PYTHON))), 3, 0);
        assertThat(first).extracting(SessionEvent::seq).containsExactly(1L);
        record("s1", "c1", 101, new Event.Started(1)); // another writer: the row is at 2 now
        List<SessionEvent> stale = events.record("s1", List.of(
                new NewEvent("c1", 102, new Event.Stream(StreamName.STDOUT, "x")),
                new NewEvent("c1", 102, new Event.Finished(Status.OK, 1L, 1L, 1L, 1L))), 7, 1);
        assertThat(stale).extracting(SessionEvent::seq).containsExactly(3L, 4L);
        assertThat(events.after("s1", 0, 10)).extracting(SessionEvent::seq).containsExactly(1L, 2L, 3L, 4L);
        assertThat(events.after("s1", 2, 10).get(0).event()).isEqualTo(new Event.Stream(StreamName.STDOUT, "x"));
        assertThat(row("c1").getStatus()).isEqualTo("ok");
        assertThat(new SessionRepository(db).find("s1").orElseThrow().sandboxLines()).isEqualTo(7L);
        assertThatThrownBy(() -> events.record("ghost", List.of(new NewEvent("g1", 1, new Event.Queued("x", Language.PYTHON))), -1, 0))
                .isInstanceOf(StoreException.class).hasMessageContaining("ghost");
    }

    @Test
    void events_of_a_session_the_store_does_not_have_are_refused() {
        assertThatThrownBy(() -> record("ghost", "g1", 1, new Event.Queued("x", Language.PYTHON)))
                .isInstanceOf(StoreException.class).hasMessageContaining("ghost");
    }

    @Test
    @Timeout(60) // a write left queued with no one to commit it would hang here
    void many_sessions_writing_at_once_lose_nothing_and_a_bad_write_fails_alone() throws Exception {
        int sessions = 32;
        int cells = 60;
        for (int s = 0; s < sessions; s++) {
            session("s" + s);
        }
        session("dup");
        record("dup", "d1", 1, new Event.Queued("x", Language.PYTHON));
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> writers = new ArrayList<>();
        for (int s = 0; s < sessions; s++) {
            String id = "s" + s;
            Thread t = new Thread(() -> {
                try {
                    for (int c = 0; c < cells; c++) {
                        String cell = id + "-c" + c;
                        record(id, cell, c, new Event.Queued("x", Language.PYTHON));
                        record(id, cell, c, new Event.Started(c + 1));
                        record(id, cell, c, new Event.Finished(Status.OK, (long) c + 1, 1L, 1L, 1L));
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            writers.add(t);
            t.start();
        }
        // a write that breaks a table's key (cell d1 is queued already), thrown into the traffic: only its caller hears of it
        for (int i = 0; i < 20; i++) {
            assertThatThrownBy(() -> record("dup", "d1", 1, new Event.Queued("again", Language.PYTHON)))
                    .isInstanceOf(RuntimeException.class);
        }
        for (Thread t : writers) {
            t.join();
        }
        assertThat(failures).isEmpty();
        for (int s = 0; s < sessions; s++) {
            assertThat(events.after("s" + s, 0, 10_000)).extracting(SessionEvent::seq)
                    .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 3L * cells).boxed().toList());
        }
        assertThat(events.after("dup", 0, 10)).hasSize(1);
        assertThat(events.lastSeq("dup")).isEqualTo(1L);
        int finished = db.read(ctx -> ctx.fetchCount(EXECUTIONS, EXECUTIONS.STATUS.eq("ok")));
        assertThat(finished).isEqualTo(sessions * cells);
    }

    @Test
    @Timeout(60)
    void writes_that_are_only_statements_go_with_their_commit_and_a_refused_one_among_them_fails_alone() throws Exception {
        session("s1");
        PreparedWrite append = new PreparedWrite(ctx -> ctx.insertInto(EVENTS, EVENTS.SESSION_ID, EVENTS.SEQ, EVENTS.EXECUTION_ID,
                        EVENTS.TYPE, EVENTS.CREATED_AT, EVENTS.BODY)
                .values(DSL.param(EVENTS.SESSION_ID), DSL.param(EVENTS.SEQ), DSL.param(EVENTS.EXECUTION_ID),
                        DSL.param(EVENTS.TYPE), DSL.param(EVENTS.CREATED_AT), DSL.param(EVENTS.BODY)));
        int threads = 16;
        int writes = 50;
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long first = (long) t * writes * 2;
            Thread thread = new Thread(() -> {
                try {
                    for (long seq = first + 1; seq <= first + writes * 2; seq += 2) {
                        db.writer().writeSteps(List.of(new StoreWriter.Step(append, "s1", seq, "c", "stream", 1L, "{}"),
                                new StoreWriter.Step(append, "s1", seq + 1, "c", "stream", 1L, "{}")));
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            writers.add(thread);
            thread.start();
        }
        // thrown into the traffic: a write to a session the store does not have, and one whose second row takes a stored key
        for (int i = 0; i < 20; i++) {
            assertThatThrownBy(() -> db.writer().writeSteps(List.of(new StoreWriter.Step(append, "ghost", 1L, "g", "stream", 1L, "{}"))))
                    .isInstanceOf(WriteRefusedException.class);
            long fresh = 1_000_000L + i;
            assertThatThrownBy(() -> db.writer().writeSteps(List.of(new StoreWriter.Step(append, "s1", fresh, "d", "stream", 1L, "{}"),
                    new StoreWriter.Step(append, "s1", 1L, "d", "stream", 1L, "{}"))))
                    .isInstanceOf(WriteRefusedException.class);
        }
        for (Thread t : writers) {
            t.join();
        }
        assertThat(failures).isEmpty();
        List<Long> stored = db.read(ctx -> ctx.select(EVENTS.SEQ).from(EVENTS).where(EVENTS.SESSION_ID.eq("s1")).orderBy(EVENTS.SEQ)
                .fetch(EVENTS.SEQ));
        assertThat(stored).containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 2L * threads * writes).boxed().toList());
        // PostgreSQL: statements and commit in one round trip (but for a group with a refused write, run again one by one);
        // SQLite commits in process, as any write
        if (TestStores.postgres()) {
            assertThat(db.writer().committedWithTheirStatements()).isPositive().isLessThanOrEqualTo(threads * writes);
        } else {
            assertThat(db.writer().committedWithTheirStatements()).isZero();
        }
    }

    @Test
    void a_prepared_write_outside_a_write_is_refused() {
        assertThatThrownBy(() -> db.writer().run(new PreparedWrite(ctx -> ctx.deleteFrom(EXECUTIONS))))
                .isInstanceOf(IllegalStateException.class);
    }

    private dev.codeinterp.server.store.generated.tables.records.ExecutionsRecord row(String id) {
        return db.read(ctx -> ctx.selectFrom(EXECUTIONS).where(EXECUTIONS.ID.eq(id)).fetchOne());
    }
}
