package dev.codeinterp.server.session;

import com.github.dockerjava.api.model.Container;
import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.server.sandbox.DockerSandboxBackend;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Faults done to a sandbox from outside, with the real engine: the container killed or frozen
 * mid-cell. The cell ends, once, saying what happened; the next cell gets a fresh interpreter.
 * Each runtime runs the same contract ({@link RuncSandboxFaultsTest}, {@link RunscSandboxFaultsTest}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SandboxFaultsContract {
    private TestApp app;

    abstract String runtime();

    @BeforeAll
    void start() {
        // no warm pool: the only sandbox of this server is the session's own
        app = TestApp.start(runtime(), Map.of("POOL_SIZE", "0", "TIMEOUT", "3s", "INTERRUPT_GRACE", "1s"));
    }

    @AfterAll
    void stop() {
        app.close();
    }

    /** The session's container: the one running sandbox of this server, once an earlier test's is gone. */
    private String theOnlySandbox() throws InterruptedException {
        DockerSandboxBackend backend = app.main.backend();
        List<Container> ours = List.of();
        for (int i = 0; i < 100; i++) {
            ours = backend.managedContainers().stream()
                    .filter(c -> backend.instanceId().equals(c.getLabels().get(DockerSandboxBackend.LABEL_INSTANCE)))
                    .filter(c -> "running".equals(c.getState()))
                    .toList();
            if (ours.size() == 1) {
                return ours.get(0).getId();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("expected the session's sandbox alone, found " + ours.size());
    }

    /** Sends a cell and returns its events up to and including its {@code finished}. */
    private static List<SessionEvent> runUntilFinished(WsClient ws, String code, Runnable whenStarted, long withinMs)
            throws InterruptedException {
        ws.send(new ClientMessage.Execute(code, null));
        List<SessionEvent> events = new ArrayList<>();
        long deadline = System.currentTimeMillis() + withinMs;
        while (System.currentTimeMillis() < deadline) {
            ServerMessage m = ws.next(Math.max(1, deadline - System.currentTimeMillis()));
            if (m instanceof ServerMessage.EventFrame f) {
                events.add(f.event());
                if (f.event().event() instanceof Event.Stream s && s.text().contains("running")) {
                    whenStarted.run();
                }
                if (f.event().event() instanceof Event.Finished) {
                    return events;
                }
            }
        }
        throw new AssertionError("no finished within " + withinMs + " ms; got " + events);
    }

    private static Status statusOf(List<SessionEvent> events) {
        return ((Event.Finished) events.get(events.size() - 1).event()).status();
    }

    @Test
    void a_sandbox_killed_mid_cell_ends_the_cell_with_an_error_and_a_restart_and_the_next_cell_runs() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
            ws.send(new ClientMessage.Hello(s.token(), Long.MAX_VALUE));
            assertThat(ws.next(5000)).isInstanceOf(ServerMessage.Welcome.class);
            String container = theOnlySandbox();
            long[] killedAt = new long[1];
            List<SessionEvent> events = runUntilFinished(ws, "import time\nprint('running', flush=True)\ntime.sleep(60)",
                    () -> {
                        killedAt[0] = System.currentTimeMillis();
                        app.main.backend().client().killContainerCmd(container).exec();
                    }, 30_000);
            long endedAfterMs = System.currentTimeMillis() - killedAt[0];
            assertThat(killedAt[0]).as("the cell started").isPositive();
            assertThat(endedAfterMs).as("the cell ended within 10 s of the kill").isLessThan(10_000);
            assertThat(statusOf(events)).isEqualTo(Status.ERROR);
            assertThat(events).anySatisfy(e -> assertThat(e.event()).isInstanceOf(Event.Restarted.class));
            assertThat(events).anySatisfy(e -> {
                assertThat(e.event()).isInstanceOf(Event.Error.class);
                assertThat(((Event.Error) e.event()).evalue()).contains("killed");
            });
            List<SessionEvent> next = runUntilFinished(ws, "print('fresh', 6 * 7)", () -> { }, 60_000);
            assertThat(statusOf(next)).isEqualTo(Status.OK);
            assertThat(next).anySatisfy(e -> assertThat(e.event()).isEqualTo(new Event.Stream(
                    dev.codeinterp.model.StreamName.STDOUT, "fresh 42\n")));
        }
        TestApp.assertOneFinishedPerCell(app.history(s));
        app.delete("/api/v1/sessions/" + s.id(), s.token());
    }

    @Test
    void a_frozen_sandbox_is_ended_by_the_timeout_ladder_and_the_next_cell_runs() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
            ws.send(new ClientMessage.Hello(s.token(), Long.MAX_VALUE));
            assertThat(ws.next(5000)).isInstanceOf(ServerMessage.Welcome.class);
            String container = theOnlySandbox();
            List<SessionEvent> events = runUntilFinished(ws, "import time\nprint('running', flush=True)\ntime.sleep(60)",
                    () -> app.main.backend().client().pauseContainerCmd(container).exec(), 30_000);
            // timeout 3 s, interrupt unanswered (the runner is frozen), 1 s grace, then a new interpreter
            assertThat(statusOf(events)).isEqualTo(Status.TIMEOUT);
            assertThat(events).anySatisfy(e -> assertThat(e.event()).isInstanceOf(Event.Restarted.class));
            List<SessionEvent> next = runUntilFinished(ws, "print('thawed')", () -> { }, 60_000);
            assertThat(statusOf(next)).isEqualTo(Status.OK);
        }
        TestApp.assertOneFinishedPerCell(app.history(s));
        app.delete("/api/v1/sessions/" + s.id(), s.token());
    }
}
