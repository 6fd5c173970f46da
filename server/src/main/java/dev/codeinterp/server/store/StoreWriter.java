package dev.codeinterp.server.store;

import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.sqlite.SQLiteDataSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * The one writer: a single connection that every write goes through, with leader/follower group
 * commit. A caller queues its write; whoever holds the connection commits everything queued in
 * one transaction, so many sessions streaming at once cost one commit per group, while a lone
 * write is committed by its own thread with no hand-off (measured: a thread hand-off each way
 * cost more than the SQLite commit itself on this 2-core machine). {@link #write} returns when
 * the write is committed: events are stored before they are sent.
 */
public final class StoreWriter implements AutoCloseable {
    private static final int MAX_GROUP = 512;

    private record Write(Consumer<DSLContext> work, CompletableFuture<Void> done) {
    }

    private final ConcurrentLinkedQueue<Write> queue = new ConcurrentLinkedQueue<>();
    private final ReentrantLock leader = new ReentrantLock();
    private final Connection connection;
    private final DSLContext ctx;
    private volatile boolean closed;
    private volatile LongConsumer commitNanos = nanos -> { };
    /** Statements prepared on the connection; touched only by the leader, as the connection is. */
    private final Map<PreparedWrite, PreparedStatement> prepared = new IdentityHashMap<>();

    StoreWriter(SQLiteDataSource dataSource, Settings settings) {
        try {
            this.connection = dataSource.getConnection();
            connection.setAutoCommit(false);
        } catch (SQLException e) {
            throw new StoreException("cannot open the write connection", e);
        }
        this.ctx = DSL.using(connection, SQLDialect.SQLITE, settings);
    }

    /** Told how long each commit took, in nanoseconds (the store's latency metric). */
    public void onCommit(LongConsumer observer) {
        this.commitNanos = observer;
    }

    /** Commits {@code work} (possibly in a group with others); returns when it is durable in the WAL. */
    public void write(Consumer<DSLContext> work) {
        if (closed) {
            throw new IllegalStateException("store is closed");
        }
        Write mine = new Write(work, new CompletableFuture<>());
        queue.add(mine);
        commitWhileNoOneLeads();
        try {
            mine.done().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while writing", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new StoreException("write failed", e.getCause());
        }
    }

    /**
     * Commits queued writes, a group at a time, while there are some and no other thread leads.
     * Whoever lets go of the connection looks at the queue again, so a write queued while another
     * thread led is never left waiting for no one, and a follower just waits for its write: it
     * used to wake every 2 ms to check, and with 200 cells in flight those wake-ups alone kept the
     * CPU busy.
     */
    private void commitWhileNoOneLeads() {
        while (!queue.isEmpty() && leader.tryLock()) {
            try {
                commitNextGroup();
            } finally {
                leader.unlock();
            }
        }
    }

    /**
     * Runs {@code statement} with {@code values} bound in order (String, Long, Integer or null). Only
     * inside a {@link #write}'s work: it runs on the write connection, in that write's transaction.
     */
    public void run(PreparedWrite statement, Object... values) {
        if (!leader.isHeldByCurrentThread()) {
            throw new IllegalStateException("a prepared write runs only inside a write");
        }
        try {
            PreparedStatement ps = prepared.get(statement);
            if (ps == null) {
                ps = connection.prepareStatement(statement.sql(ctx));
                prepared.put(statement, ps);
            }
            for (int i = 0; i < values.length; i++) {
                ps.setObject(i + 1, values[i]);
            }
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("write failed", e);
        }
    }

    private void commitNextGroup() {
        List<Write> group = new ArrayList<>();
        Write w;
        while (group.size() < MAX_GROUP && (w = queue.poll()) != null) {
            group.add(w);
        }
        if (group.isEmpty()) {
            return;
        }
        if (group.size() == 1) {
            commitAlone(group.get(0));
        } else {
            commitGroup(group);
        }
    }

    /** The common case: one write, no savepoint round trips. */
    private void commitAlone(Write w) {
        try {
            w.work().accept(ctx);
            timedCommit();
            w.done().complete(null);
        } catch (RuntimeException | SQLException e) {
            rollbackQuietly();
            w.done().completeExceptionally(e instanceof RuntimeException r ? r : new StoreException("write failed", e));
        }
    }

    /** Commits the group in one transaction; a failing write is rolled back alone and reported to its caller. */
    private void commitGroup(List<Write> group) {
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
            timedCommit();
            applied.forEach(w -> w.done().complete(null));
        } catch (SQLException e) {
            applied.forEach(w -> w.done().completeExceptionally(new StoreException("commit failed", e)));
            rollbackQuietly();
        }
    }

    private void timedCommit() throws SQLException {
        long t0 = System.nanoTime();
        connection.commit();
        commitNanos.accept(System.nanoTime() - t0);
    }

    private void rollbackQuietly() {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // the connection is in trouble; the next commit will say so again
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
        leader.lock();
        try {
            while (!queue.isEmpty()) {
                commitNextGroup();
            }
            for (PreparedStatement ps : prepared.values()) {
                ps.close();
            }
            connection.close();
        } catch (SQLException ignored) {
            // closing anyway
        } finally {
            leader.unlock();
        }
    }
}
