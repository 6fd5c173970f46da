package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.server.sandbox.SandboxExit;
import dev.codeinterp.server.session.residency.IdleReaper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The session's policies (shutdown ladder, output cap, supervision, artifacts) on fake sandboxes:
 * no Docker engine, each case in milliseconds. The same behaviours against real containers are in
 * SandboxFaultsContract, RestApiContract and SessionLifecycleTest.
 */
class SessionOnFakeSandboxTest {
    private static final SandboxExit KILLED = SandboxExit.inspected(137, false, "");

    private final SessionRig rig = new SessionRig();

    @AfterEach
    void close() {
        rig.close();
    }

    private static FakeSandboxes answering(FakeSandbox.Script script) {
        return new FakeSandboxes(null, (id, ws) -> FakeSandbox.running(id, ws, script));
    }

    private static Event.Finished finishedOf(List<Event> events) {
        return (Event.Finished) events.get(events.size() - 1);
    }

    private static List<Class<?>> kinds(List<Event> events) {
        return events.stream().<Class<?>>map(Object::getClass).toList();
    }

    @Test
    void a_cell_runs_and_its_events_arrive_in_order_ending_once() {
        FakeSandboxes sandboxes = answering(FakeSandbox.answers(new Event.Stream(StreamName.STDOUT, "hi\n")));
        Session session = rig.start(sandboxes, SessionRig.LIMITS);

        List<Event> events = rig.finished(session.submit(Cells.python("print('hi')")));

        assertThat(kinds(events)).containsExactly(Event.Queued.class, Event.Started.class, Event.Stream.class, Event.Finished.class);
        assertThat(finishedOf(events).status()).isEqualTo(Status.OK);
        assertThat(sandboxes.latest().sentTypes()).containsExactly("execute");
    }

    @Test
    void a_cell_the_runner_reported_in_one_write_is_stored_in_one_commit_after_its_queued() {
        FakeSandboxes sandboxes = answering(FakeSandbox.answersInOneWrite(new Event.ExecuteResult(1, java.util.Map.of("text/plain", "2"),
                java.util.Map.of())));
        Session session = rig.start(sandboxes, SessionRig.LIMITS);
        rig.finished(session.submit(Cells.python("1 + 1"))); // the session's own first writes are behind us
        int before = rig.commits();

        List<Event> events = rig.finished(session.submit(Cells.python("1 + 1")));

        assertThat(kinds(events)).containsExactly(Event.Queued.class, Event.Started.class, Event.ExecuteResult.class, Event.Finished.class);
        assertThat(rig.commits() - before).as("queued, then started + result + finished together").isEqualTo(2);
    }

    @Test
    void a_cell_past_its_timeout_is_interrupted_and_ends_as_a_timeout() {
        FakeSandboxes sandboxes = answering(FakeSandbox.HANGS);
        Session session = rig.start(sandboxes, SessionRig.LIMITS);

        List<Event> events = rig.finished(session.submit(Cells.python("while True: pass", Duration.ofMillis(50))));

        assertThat(events).contains(new Event.Error("TimeoutError",
                "the cell ran longer than its timeout of 0.05 s and was interrupted", List.of()));
        assertThat(events).noneMatch(e -> e instanceof Event.Restarted);
        assertThat(finishedOf(events).status()).isEqualTo(Status.TIMEOUT);
        assertThat(sandboxes.started()).hasSize(1);
        assertThat(sandboxes.latest().sentTypes()).containsExactly("execute", "interrupt");
    }

    @Test
    void a_cell_that_ignores_interrupt_is_stopped_by_restart_after_the_grace() {
        FakeSandboxes sandboxes = new FakeSandboxes(null, (id, ws) -> FakeSandbox.ignoringInterrupts(id, ws, FakeSandbox.HANGS));
        Session session = rig.start(sandboxes, SessionRig.LIMITS);
        sandboxes.makeFromNowOn((id, ws) -> FakeSandbox.running(id, ws, FakeSandbox.answers()));
        long started = System.nanoTime();

        List<Event> events = rig.finished(session.submit(Cells.python("import signal; ...", Duration.ofMillis(50))));

        assertThat((System.nanoTime() - started) / 1_000_000).as("timeout + grace, in ms").isGreaterThanOrEqualTo(150);
        assertThat(kinds(events)).containsExactly(Event.Queued.class, Event.Started.class, Event.Error.class,
                Event.Restarted.class, Event.Finished.class);
        assertThat(((Event.Error) events.get(2)).ename()).isEqualTo("TimeoutError");
        assertThat(((Event.Restarted) events.get(3)).reason())
                .isEqualTo("the cell did not stop within 0.1 s of being interrupted, so the interpreter was restarted");
        assertThat(finishedOf(events).status()).isEqualTo(Status.TIMEOUT);
        FakeSandbox stuck = sandboxes.started().get(0);
        assertThat(stuck.sentTypes()).containsExactly("execute", "interrupt");
        assertThat(stuck.closed()).isTrue();
        assertThat(finishedOf(rig.finished(session.submit(Cells.python("1")))).status()).as("the next cell, on a fresh sandbox")
                .isEqualTo(Status.OK);
        assertThat(sandboxes.started()).hasSize(2);
    }

    @Test
    void a_users_interrupt_that_is_ignored_ends_the_cell_as_interrupted_by_restart() {
        FakeSandboxes sandboxes = new FakeSandboxes(null, (id, ws) -> FakeSandbox.ignoringInterrupts(id, ws, FakeSandbox.HANGS));
        Session session = rig.start(sandboxes, SessionRig.LIMITS);
        String cell = session.submit(Cells.python("while True: pass"));
        SessionRig.await(() -> rig.eventsOf(cell).stream().anyMatch(e -> e instanceof Event.Started), "the cell started");

        session.interrupt();
        session.interrupt(); // a second click is not a second interrupt
        List<Event> events = rig.finished(cell);

        assertThat(events).anyMatch(e -> e instanceof Event.Restarted);
        assertThat(events).noneMatch(e -> e instanceof Event.Error);
        assertThat(finishedOf(events).status()).isEqualTo(Status.INTERRUPTED);
        assertThat(sandboxes.started().get(0).sentTypes()).containsExactly("execute", "interrupt");
    }

    @Test
    void a_session_is_not_idle_while_its_first_sandbox_starts_cold() throws InterruptedException {
        CountDownLatch starting = new CountDownLatch(1);
        CountDownLatch ready = new CountDownLatch(1);
        FakeSandboxes sandboxes = new FakeSandboxes(null, (id, ws) -> {
            starting.countDown();
            try {
                ready.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return FakeSandbox.running(id, ws, FakeSandbox.answers());
        });
        Session session = rig.create(sandboxes, SessionRig.LIMITS);
        Thread starter = new Thread(() -> session.start(true));
        starter.start();
        assertThat(starting.await(10, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(50);
        List<Session> reaped = new CopyOnWriteArrayList<>();

        new IdleReaper(() -> Duration.ofMillis(10), () -> List.of(session), reaped::add, () -> { }).reapOnce();
        ready.countDown();
        starter.join();
        new IdleReaper(() -> Duration.ofSeconds(1), () -> List.of(session), reaped::add, () -> { }).reapOnce();

        assertThat(reaped).as("closed by the idle reaper during or right after its start").isEmpty();
    }

    @Test
    void output_past_the_cap_is_cut_with_one_truncation_notice() {
        FakeSandboxes sandboxes = answering(FakeSandbox.answers(
                new Event.Stream(StreamName.STDOUT, "hello "),
                new Event.Stream(StreamName.STDOUT, "world and more"),
                new Event.Truncated(1 << 20), // the runner's own cut: the server has said it already
                new Event.Stream(StreamName.STDERR, "again")));
        Session session = rig.start(sandboxes, SessionRig.limits(10, RestartPolicy.DEFAULT));

        List<Event> events = rig.finished(session.submit(Cells.python("print('x' * 10**6)")));

        assertThat(events).filteredOn(e -> e instanceof Event.Stream).containsExactly(
                new Event.Stream(StreamName.STDOUT, "hello "), new Event.Stream(StreamName.STDOUT, "worl"));
        assertThat(events).filteredOn(e -> e instanceof Event.Truncated).containsExactly(new Event.Truncated(10));
        assertThat(finishedOf(events).status()).isEqualTo(Status.OK);
    }

    @Test
    void a_sandbox_killed_mid_cell_ends_the_cell_with_an_error_and_a_fresh_one_runs_the_next() {
        FakeSandboxes sandboxes = answering(FakeSandbox.HANGS);
        Session session = rig.start(sandboxes, SessionRig.LIMITS);
        String cell = session.submit(Cells.python("import time; time.sleep(60)"));
        SessionRig.await(() -> rig.eventsOf(cell).size() >= 2, "the cell started");
        sandboxes.makeFromNowOn((id, ws) -> FakeSandbox.running(id, ws, FakeSandbox.answers()));

        sandboxes.started().get(0).die(KILLED);
        List<Event> events = rig.finished(cell);

        String why = "the interpreter was killed (SIGKILL, exit code 137) and was restarted";
        assertThat(events).containsSubsequence(new Event.Error("SandboxExited", why, List.of()), new Event.Restarted(why));
        assertThat(finishedOf(events).status()).isEqualTo(Status.ERROR);
        assertThat(finishedOf(rig.finished(session.submit(Cells.python("1")))).status()).isEqualTo(Status.OK);
    }

    @Test
    void a_sandbox_out_of_memory_ends_the_cell_as_oom() {
        FakeSandboxes sandboxes = answering(FakeSandbox.HANGS);
        Session session = rig.start(sandboxes, SessionRig.LIMITS);
        String cell = session.submit(Cells.python("x = bytearray(10**10)"));
        SessionRig.await(() -> rig.eventsOf(cell).size() >= 2, "the cell started");

        sandboxes.started().get(0).die(SandboxExit.inspected(137, true, ""));
        List<Event> events = rig.finished(cell);

        assertThat(events).contains(new Event.Error("MemoryError",
                "the cell used more than the sandbox's 64 MiB of memory; the interpreter was restarted", List.of()));
        assertThat(events).contains(new Event.Restarted("the interpreter ran out of memory and was restarted"));
        assertThat(finishedOf(events).status()).isEqualTo(Status.OOM);
    }

    @Test
    void a_sandbox_that_keeps_dying_is_given_up_with_a_clear_error() throws InterruptedException {
        FakeSandboxes sandboxes = new FakeSandboxes(null, (id, ws) -> FakeSandbox.bornDead(id, ws, SandboxExit.inspected(1, false, "")));
        Session session = rig.start(sandboxes, SessionRig.LIMITS);

        SessionRig.await(() -> rig.eventsOf(Session.NO_EXECUTION).stream().anyMatch(e -> e instanceof Event.Error),
                "the session gave up");
        Thread.sleep(200);

        assertThat(sandboxes.started()).as("the first sandbox and three restarts, then no more").hasSize(4);
        List<Event> idle = rig.eventsOf(Session.NO_EXECUTION);
        assertThat(idle).filteredOn(e -> e instanceof Event.Restarted).hasSize(3);
        Event.Error gaveUp = (Event.Error) idle.get(idle.size() - 1);
        assertThat(gaveUp.ename()).isEqualTo("SandboxKeepsCrashing");
        assertThat(gaveUp.evalue()).isEqualTo("the sandbox keeps crashing (the interpreter exited with code 1; it stopped 4 times"
                + " within 60 s, so the session stopped restarting it). Restart the interpreter to try again, or start a new session.");

        List<Event> refused = rig.finished(session.submit(Cells.python("1")));
        assertThat(refused).anyMatch(e -> e instanceof Event.Error err && err.ename().equals("SandboxKeepsCrashing")
                && err.evalue().contains("Restart the interpreter"));
        assertThat(finishedOf(refused).status()).isEqualTo(Status.ERROR);
        assertThat(sandboxes.started()).as("a cell does not restart a given-up sandbox").hasSize(4);

        sandboxes.makeFromNowOn((id, ws) -> FakeSandbox.running(id, ws, FakeSandbox.answers()));
        session.restart();
        assertThat(finishedOf(rig.finished(session.submit(Cells.python("1")))).status()).as("after the user's restart")
                .isEqualTo(Status.OK);
    }

    @Test
    void restarts_after_repeated_deaths_back_off() {
        FakeSandboxes sandboxes = new FakeSandboxes(null, (id, ws) -> FakeSandbox.bornDead(id, ws, KILLED));
        rig.start(sandboxes, SessionRig.limits(1 << 20, new RestartPolicy(3, Duration.ofSeconds(60),
                Duration.ofMillis(40), Duration.ofMillis(80))));

        SessionRig.await(() -> sandboxes.started().size() == 4, "three restarts");

        // the first restart follows at once; then 40 ms, then 80 ms
        assertThat(sandboxes.msBetweenStarts(3)).isGreaterThanOrEqualTo(40);
        assertThat(sandboxes.msBetweenStarts(4)).isGreaterThanOrEqualTo(80);
    }

    @Test
    void a_cell_waits_out_the_back_off_instead_of_restarting_early() {
        FakeSandboxes sandboxes = answering(FakeSandbox.HANGS);
        Session session = rig.start(sandboxes, SessionRig.limits(1 << 20, new RestartPolicy(3, Duration.ofSeconds(60),
                Duration.ofMillis(300), Duration.ofMillis(300))));
        sandboxes.makeFromNowOn((id, ws) -> FakeSandbox.running(id, ws, FakeSandbox.answers()));
        sandboxes.latest().die(KILLED);
        SessionRig.await(() -> sandboxes.started().size() == 2, "the first restart, at once");
        sandboxes.latest().die(KILLED);

        long submitted = System.nanoTime();
        List<Event> events = rig.finished(session.submit(Cells.python("1")));

        assertThat(finishedOf(events).status()).isEqualTo(Status.OK);
        assertThat((System.nanoTime() - submitted) / 1_000_000).as("ms the cell waited").isGreaterThanOrEqualTo(250);
        assertThat(sandboxes.started()).hasSize(3);
    }

    @Test
    void a_file_the_cell_writes_is_announced_as_an_artifact_with_the_apis_link_before_finished() {
        FakeSandboxes sandboxes = answering((sandbox, executionId, code) -> {
            sandbox.say(executionId, new Event.Started(1));
            try {
                Files.writeString(sandbox.workspace().dir().resolve("out.csv"), "a,b\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            sandbox.finish(executionId, Status.OK);
        });
        Session session = rig.start(sandboxes, SessionRig.LIMITS);

        List<Event> events = rig.finished(session.submit(Cells.python("open('out.csv', 'w').write('a,b\\n')")));

        assertThat(events.get(events.size() - 2)).isEqualTo(
                new Event.Artifact("out.csv", 4, "text/csv", "/links/" + session.id() + "/out.csv"));
    }
}
