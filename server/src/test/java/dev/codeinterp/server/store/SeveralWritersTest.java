package dev.codeinterp.server.store;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.StreamName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Several servers on one database (PostgreSQL in test.sh's second pass; SQLite's file shared by
 * several processes on the default pass): each server is a {@link Database} with its own writer.
 */
class SeveralWritersTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void writers_of_one_session_in_several_servers_number_its_events_in_order_with_no_gap() throws Exception {
        severalWritersOfOneSession(false);
    }

    /** Each writer says the last seq it stored, as a server's session log does: with the others writing too, that is mostly stale. */
    @Test
    @Timeout(120)
    void writers_that_number_from_the_last_seq_they_stored_are_renumbered_from_the_row_when_others_wrote_since() throws Exception {
        severalWritersOfOneSession(true);
    }

    private void severalWritersOfOneSession(boolean sayLastSeq) throws Exception {
        int servers = 3;
        int threadsPerServer = 4;
        int batches = 40;
        List<Database> dbs = new ArrayList<>();
        try {
            for (int i = 0; i < servers; i++) {
                dbs.add(TestStores.open(dir));
            }
            new SessionRepository(dbs.get(0)).insert(new StoredSession("shared", "hash", "runc", false, 1L, null, null, "test"));
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            // what each writer was told it stored, by writer: its events' seqs must rise in the order it wrote them
            Map<String, List<SessionEvent>> told = new ConcurrentHashMap<>();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int s = 0; s < servers; s++) {
                EventRepository events = new EventRepository(dbs.get(s));
                for (int t = 0; t < threadsPerServer; t++) {
                    String writer = "w" + s + "." + t;
                    told.put(writer, new ArrayList<>());
                    Thread thread = new Thread(() -> {
                        try {
                            go.await();
                            for (int b = 0; b < batches; b++) {
                                List<NewEvent> batch = new ArrayList<>();
                                for (int e = 0; e <= b % 3; e++) { // one, two or three events at a time
                                    batch.add(new NewEvent(writer, b, new Event.Stream(StreamName.STDOUT, writer + ":" + b + ":" + e)));
                                }
                                List<SessionEvent> mine = told.get(writer);
                                long seen = !sayLastSeq ? EventRepository.UNKNOWN : mine.isEmpty() ? 0 : mine.get(mine.size() - 1).seq();
                                mine.addAll(events.record("shared", batch, -1, seen));
                            }
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    }, writer);
                    threads.add(thread);
                    thread.start();
                }
            }
            go.countDown();
            for (Thread t : threads) {
                t.join();
            }
            assertThat(failures).isEmpty();

            List<SessionEvent> stored = new EventRepository(dbs.get(0)).after("shared", 0, 100_000);
            long total = told.values().stream().mapToLong(List::size).sum();
            assertThat(stored).extracting(SessionEvent::seq).as("1..N, each once")
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, total).boxed().toList());
            long perWriter = LongStream.range(0, batches).map(b -> b % 3 + 1).sum();
            assertThat(total).isEqualTo(servers * threadsPerServer * perWriter);
            for (List<SessionEvent> mine : told.values()) {
                assertThat(mine).extracting(SessionEvent::seq).as("a writer's events in the order it wrote them").isSorted();
                for (SessionEvent e : mine) {
                    assertThat(stored.get((int) e.seq() - 1)).as("what was acknowledged is what is stored").isEqualTo(e);
                }
            }
            // a batch is stored as one run: no other writer's event falls between its first and last
            for (int i = 0; i + 1 < stored.size(); i++) {
                String text = ((Event.Stream) stored.get(i).event()).text();
                if (!text.endsWith(":0")) {
                    assertThat(stored.get(i - 1).executionId()).isEqualTo(stored.get(i).executionId());
                }
            }
        } finally {
            dbs.forEach(Database::close);
        }
    }

    @Test
    @Timeout(120)
    void servers_starting_at_once_on_one_postgresql_apply_each_migration_exactly_once() throws Exception {
        assumeTrue(TestStores.postgres(), "SQLite's store is one server's file");
        int servers = 4;
        CountDownLatch go = new CountDownLatch(1);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Database> opened = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < servers; i++) {
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    opened.add(TestStores.open(dir));
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            threads.add(t);
            t.start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        try {
            assertThat(failures).isEmpty();
            assertThat(opened).hasSize(servers);
            List<String> applied = opened.get(0).read(ctx -> ctx.fetch(
                    "SELECT version FROM flyway_schema_history WHERE success ORDER BY installed_rank").getValues(0, String.class));
            assertThat(applied).as("each version once").doesNotHaveDuplicates().contains("1", "5");
            int failed = opened.get(0).read(ctx -> ctx.fetchOne("SELECT count(*) FROM flyway_schema_history WHERE NOT success")
                    .get(0, Integer.class));
            assertThat(failed).isZero();
        } finally {
            opened.forEach(Database::close);
        }
    }
}
