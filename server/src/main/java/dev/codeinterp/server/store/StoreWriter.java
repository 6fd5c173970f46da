package dev.codeinterp.server.store;

import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.sqlite.SQLiteDataSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * The one writer: a thread that owns the write connection and commits queued writes in groups,
 * so many sessions streaming at once cost one fsync per group instead of one per event.
 * A caller that needs durability before it acts (events are stored before they are sent) waits
 * on the returned future.
 */
public final class StoreWriter implements AutoCloseable {
    private static final int MAX_GROUP = 512;

    private record Write(Consumer<DSLContext> work, CompletableFuture<Void> done) {
    }

    private final BlockingQueue<Write> queue = new LinkedBlockingQueue<>();
    private final Connection connection;
    private final Settings settings;
    private final Thread thread;
    private volatile boolean closed;

    StoreWriter(SQLiteDataSource dataSource, Settings settings) {
        this.settings = settings;
        try {
            this.connection = dataSource.getConnection();
            connection.setAutoCommit(false);
        } catch (SQLException e) {
            throw new StoreException("cannot open the write connection", e);
        }
        this.thread = new Thread(this::loop, "store-writer");
        thread.setDaemon(true);
        thread.start();
    }

    public CompletableFuture<Void> submit(Consumer<DSLContext> work) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (closed) {
            done.completeExceptionally(new IllegalStateException("store is closed"));
            return done;
        }
        queue.add(new Write(work, done));
        return done;
    }

    /** Submits and waits: the write is committed when this returns. */
    public void write(Consumer<DSLContext> work) {
        try {
            submit(work).join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private void loop() {
        DSLContext ctx = DSL.using(connection, SQLDialect.SQLITE, settings);
        List<Write> group = new ArrayList<>();
        while (!closed || !queue.isEmpty()) {
            try {
                Write first = queue.poll(200, java.util.concurrent.TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                group.add(first);
                queue.drainTo(group, MAX_GROUP - 1);
                commitGroup(ctx, group);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                group.clear();
            }
        }
    }

    /** Commits the group in one transaction; a failing write is rolled back alone and reported to its caller. */
    private void commitGroup(DSLContext ctx, List<Write> group) {
        if (group.size() == 1) {
            commitAlone(ctx, group.get(0));
            return;
        }
        List<Write> applied = new ArrayList<>();
        for (Write w : group) {
            try (var sp = new Savepoint(connection)) {
                w.work().accept(ctx);
                sp.release();
                applied.add(w);
            } catch (RuntimeException | SQLException e) {
                w.done().completeExceptionally(e instanceof RuntimeException r ? r : new StoreException("write failed", e));
            }
        }
        try {
            connection.commit();
            applied.forEach(w -> w.done().complete(null));
        } catch (SQLException e) {
            applied.forEach(w -> w.done().completeExceptionally(new StoreException("commit failed", e)));
            try {
                connection.rollback();
            } catch (SQLException ignored) {
                // the connection is in trouble; the next commit will say so again
            }
        }
    }

    /** The common case of an idle server: one write, no savepoint round trips. */
    private void commitAlone(DSLContext ctx, Write w) {
        try {
            w.work().accept(ctx);
            connection.commit();
            w.done().complete(null);
        } catch (RuntimeException | SQLException e) {
            try {
                connection.rollback();
            } catch (SQLException ignored) {
                // reported below
            }
            w.done().completeExceptionally(e instanceof RuntimeException r ? r : new StoreException("write failed", e));
        }
    }

    /** A savepoint rolled back unless released, so one bad write does not spoil its group. */
    private static final class Savepoint implements AutoCloseable {
        private final Connection connection;
        private final java.sql.Savepoint savepoint;
        private boolean released;

        Savepoint(Connection connection) throws SQLException {
            this.connection = connection;
            this.savepoint = connection.setSavepoint();
        }

        void release() throws SQLException {
            connection.releaseSavepoint(savepoint);
            released = true;
        }

        @Override
        public void close() throws SQLException {
            if (!released) {
                connection.rollback(savepoint);
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
    }
}
