package dev.codeinterp.server.session;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.server.store.Database;
import dev.codeinterp.server.store.EventRepository;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoredSession;
import dev.codeinterp.server.store.TestStores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code DATABASE_SYNC=normal} a crash of PostgreSQL can lose the commits it took last, while
 * this server lives on. The session's log then goes on from what the store holds, with no gap, and
 * says which of the events it had sent the store no longer has.
 */
class StoreThatLostCommitsTest {
    @TempDir
    Path dir;

    @Test
    void a_store_that_lost_its_last_events_is_numbered_on_from_what_it_holds_and_the_loss_is_logged() {
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger(SessionEvents.class);
        logger.addAppender(logged);
        logged.start();
        try (Database db = TestStores.open(dir)) {
            new SessionRepository(db).insert(new StoredSession("s1", "hash", "runc", false, 1L, null, null, "test"));
            SessionEvents log = new SessionEvents("s1", 0, new EventRepository(db));
            for (int i = 1; i <= 3; i++) {
                log.emit("e1", new Event.Stream(StreamName.STDOUT, "line " + i + "\n"));
            }
            // what a database that crashed before flushing its last two commits holds after it restarts
            db.writer().write(ctx -> {
                ctx.execute("DELETE FROM events WHERE session_id = 's1' AND seq > 1");
                ctx.execute("UPDATE sessions SET last_seq = 1 WHERE id = 's1'");
            });

            log.emit("e1", new Event.Stream(StreamName.STDOUT, "after the crash\n"));

            List<SessionEvent> stored = new ArrayList<>();
            log.subscribe(0, stored::add);
            assertThat(stored).extracting(SessionEvent::seq).containsExactly(1L, 2L);
            assertThat(((Event.Stream) stored.get(1).event()).text()).isEqualTo("after the crash\n");
            assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage)
                    .anySatisfy(m -> assertThat(m).contains("the store lost events 2 to 3 of session s1"));
        } finally {
            logger.detachAppender(logged);
        }
    }
}
