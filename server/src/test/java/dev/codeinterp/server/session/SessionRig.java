package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.files.Workspaces;
import dev.codeinterp.server.store.Database;
import dev.codeinterp.server.store.EventRepository;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoredSession;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * A real {@link Session} on {@link FakeSandboxes} with a throwaway store (SQLite, or PostgreSQL in test.sh's second pass) and workspace:
 * no Docker engine, so the session's policies are seen in milliseconds. Keeps every event the
 * session sent, in order.
 */
final class SessionRig implements AutoCloseable {
    /** Fast enough for tests: 100 ms grace, three restarts a minute with 10-40 ms back-off. */
    static final ExecutionLimits LIMITS = limits(1 << 20, new RestartPolicy(3, Duration.ofSeconds(60),
            Duration.ofMillis(10), Duration.ofMillis(40)));
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final Path dir;
    private final Database db;
    private final Workspaces workspaces;
    private final List<SessionEvent> events = new CopyOnWriteArrayList<>();
    private final java.util.concurrent.atomic.AtomicInteger commits = new java.util.concurrent.atomic.AtomicInteger();
    final Workspace workspace;
    private Session session;

    SessionRig() {
        try {
            dir = Files.createTempDirectory("session-rig");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        db = dev.codeinterp.server.store.TestStores.open(dir);
        db.writer().onCommit(nanos -> commits.incrementAndGet());
        workspaces = new Workspaces(dir.resolve("workspaces"), 1 << 20);
        workspace = workspaces.create();
    }

    static ExecutionLimits limits(long outputCapBytes, RestartPolicy restarts) {
        return new ExecutionLimits(outputCapBytes, Duration.ofMillis(100), 64L << 20, 10, restarts, Duration.ofMinutes(5));
    }

    /** Starts a session with a warm sandbox; artifact links are {@code /links/<session>/<file>}. */
    Session start(FakeSandboxes sandboxes, ExecutionLimits limits) {
        Session created = create(sandboxes, limits);
        created.start(true);
        return created;
    }

    /** A session not started yet. */
    Session create(FakeSandboxes sandboxes, ExecutionLimits limits) {
        String id = Tokens.newId();
        new SessionRepository(db).insert(new StoredSession(id, Tokens.hash("token"), "fake", false,
                System.currentTimeMillis(), null, workspace.id(), "test"));
        session = new Session(id, "fake", new SessionEvents(id, 0, new EventRepository(db)), sandboxes, workspace,
                adopted -> { }, taken -> { }, limits, (sessionId, name) -> "/links/" + sessionId + "/" + name, InstallStep.NONE);
        session.subscribe(0, events::add);
        return session;
    }

    /** The session's row as the store holds it now. */
    StoredSession row() {
        return new SessionRepository(db).find(session.id()).orElseThrow();
    }

    /** Transactions the store has committed so far. */
    int commits() {
        return commits.get();
    }

    /** The events of one cell (or of {@link Session#NO_EXECUTION}) so far, in order. */
    List<Event> eventsOf(String executionId) {
        return events.stream().filter(e -> e.executionId().equals(executionId)).map(SessionEvent::event).toList();
    }

    /** The cell's events once its {@code finished} arrived. */
    List<Event> finished(String executionId) {
        await(() -> eventsOf(executionId).stream().anyMatch(Event.Finished.class::isInstance), "cell " + executionId + " finished");
        return eventsOf(executionId);
    }

    static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WAIT + ": " + what);
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Override
    public void close() {
        try {
            if (session != null) {
                session.close();
            }
        } finally {
            db.close();
            workspaces.retainOnly(Set.of());
            try (var walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // a temp dir left behind
            }
        }
    }
}
