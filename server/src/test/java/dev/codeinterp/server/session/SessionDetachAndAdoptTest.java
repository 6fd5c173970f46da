package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What lets a session outlive its server process, on fake sandboxes: the runner's line count is
 * stored with the events those lines made and only then acknowledged; a stopping server detaches
 * (the sandbox runs on, nothing ends); the next one adopts the sandbox and its running cell. The
 * same against real containers, restarts and kills: RestartKeepsSessionsTest.
 */
class SessionDetachAndAdoptTest {
    private final SessionRig rig = new SessionRig();

    @AfterEach
    void close() {
        rig.close();
    }

    @Test
    void the_runner_lines_a_cell_made_are_stored_with_its_events_and_then_acknowledged() {
        FakeSandboxes sandboxes = new FakeSandboxes(null, (id, ws) -> FakeSandbox.running(id, ws,
                FakeSandbox.answersInOneWrite(new Event.Stream(StreamName.STDOUT, "hi\n"))));
        Session session = rig.start(sandboxes, SessionRig.LIMITS);

        rig.finished(session.submit(Cells.python("print('hi')")));
        rig.finished(session.submit(Cells.python("print('hi')")));

        assertThat(rig.row().sandboxLines()).as("started, stream, finished: twice").isEqualTo(6);
        SessionRig.await(() -> sandboxes.latest().acknowledged().contains(6L), "the 6 lines acknowledged");
        assertThat(sandboxes.latest().acknowledged()).containsExactly(3L, 6L);
    }

    @Test
    void a_detached_session_leaves_its_sandbox_running_and_ends_nothing() {
        FakeSandboxes sandboxes = new FakeSandboxes(null, (id, ws) -> FakeSandbox.running(id, ws, FakeSandbox.HANGS));
        Session session = rig.start(sandboxes, SessionRig.LIMITS);
        String cell = session.submit(Cells.python("import time; time.sleep(60)"));
        SessionRig.await(() -> rig.eventsOf(cell).stream().anyMatch(Event.Started.class::isInstance), "the cell started");

        session.detach();

        FakeSandbox sandbox = sandboxes.latest();
        assertThat(sandbox.detached()).isTrue();
        assertThat(sandbox.closed()).as("not removed").isFalse();
        assertThat(sandbox.sentTypes()).as("not interrupted").containsExactly("execute");
        assertThat(rig.eventsOf(cell)).noneMatch(Event.Finished.class::isInstance);
    }

    @Test
    void an_adopted_session_goes_on_with_its_running_cell_and_ends_the_ones_that_never_ran() {
        FakeSandboxes sandboxes = new FakeSandboxes(null, (id, ws) -> FakeSandbox.running(id, ws, FakeSandbox.answers()));
        Session session = rig.create(sandboxes, SessionRig.LIMITS);
        FakeSandbox left = FakeSandbox.running("left-running", null, FakeSandbox.answers());

        session.adopt(left, "running-cell", Duration.ofSeconds(30), List.of("waiting-cell"));
        session.start(false);
        left.say("running-cell", new Event.Stream(StreamName.STDOUT, "still going\n"));
        left.finish("running-cell", Status.OK);

        assertThat(rig.finished("running-cell")).containsExactly(new Event.Stream(StreamName.STDOUT, "still going\n"),
                new Event.Finished(Status.OK, 1L, 1L, 1L, 1L));
        List<Event> waiting = rig.finished("waiting-cell");
        assertThat(waiting.get(0)).isInstanceOfSatisfying(Event.Error.class, e -> assertThat(e.ename()).isEqualTo("ServerRestarted"));
        assertThat(((Event.Finished) waiting.get(1)).status()).isEqualTo(Status.INTERRUPTED);
        assertThat(sandboxes.started()).as("no new sandbox: the adopted one serves the next cell").isEmpty();
        rig.finished(session.submit(Cells.python("1")));
        assertThat(left.sentTypes()).containsExactly("execute");
    }
}
