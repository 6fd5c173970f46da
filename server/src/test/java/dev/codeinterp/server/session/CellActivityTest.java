package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CellActivityTest {
    private final CellActivity activity = new CellActivity();

    @Test
    void a_server_with_no_cells_yet_is_quiet() {
        assertTrue(activity.quiet());
    }

    @Test
    void a_running_cell_is_not_quiet_and_its_end_is_quiet_only_after_a_pause() throws InterruptedException {
        activity.record(queued("a"));
        activity.record(queued("b"));
        assertFalse(activity.quiet(), "two cells run");
        activity.record(finished("a"));
        assertFalse(activity.quiet(), "one still runs");
        activity.record(finished("b"));
        assertFalse(activity.quiet(), "the next wave of cells may be a moment away");
        Thread.sleep(CellActivity.QUIET_AFTER_MS + 100);
        assertTrue(activity.quiet());
    }

    @Test
    void a_finished_without_its_queued_never_makes_the_count_negative() throws InterruptedException {
        activity.record(finished("stray"));
        activity.record(queued("a"));
        Thread.sleep(CellActivity.QUIET_AFTER_MS + 100);
        assertFalse(activity.quiet(), "cell a still runs; the stray finished did not cancel it");
    }

    @Test
    void other_events_do_not_count_as_cells() {
        activity.record(new SessionEvent(1, "a", 1L, new Event.Stream(dev.codeinterp.model.StreamName.STDOUT, "hi")));
        assertTrue(activity.quiet());
    }

    private static SessionEvent queued(String id) {
        return new SessionEvent(1, id, 1L, new Event.Queued("1+1"));
    }

    private static SessionEvent finished(String id) {
        return new SessionEvent(2, id, 2L, new Event.Finished(Status.OK, 1L, 1L, 1L, 1L));
    }
}
