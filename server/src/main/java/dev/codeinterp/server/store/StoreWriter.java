// Over 300 lines: group commit (queue, leader, follower hand-off) and its failure handling guard one connection; splitting them would spread its locking.
package dev.codeinterp.server.store;

import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
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
 *
 * <p>On PostgreSQL this is one writer per server process; several processes sharing a database are
 * several writers, kept apart by row locks (see {@link EventRepository#record}). A connection the
 * database dropped (a restart, a failover) fails the writes in flight and is replaced by the next
 * write, so the server recovers without being restarted. A group made only of {@link #writeSteps}
 * goes to PostgreSQL with its commit in one round trip ({@link #commitWithItsStatements}).
 */
public final class StoreWriter implements AutoCloseable {
    private static final int MAX_GROUP = 512;
    /** The most statements a group sends with its commit; PostgreSQL's protocol caps each message's values, the driver holds them all. */
    private static final int MAX_STEPS_AT_ONCE = 256;

    /** {@code steps}: what the work runs, when it is only that ({@link #writeSteps}); else null. */
    private record Write(Consumer<DSLContext> work, List<Step> steps, CompletableFuture<Void> done) {
    }

    private final ConcurrentLinkedQueue<Write> queue = new ConcurrentLinkedQueue<>();
    private final ReentrantLock leader = new ReentrantLock();
    private final DataSource dataSource;
    private final SQLDialect dialect;
    private final Settings settings;
    /** The write connection and its context, opened on first use and again after the database dropped it; leader only. */
    private Connection connection;
    private DSLContext ctx;
    private volatile boolean closed;
    private volatile LongConsumer commitNanos = nanos -> { };
    /** What is prepared on the write connection; the leader's, as the connection is. */
    private PreparedStatements statements;
    /** How many writes went to the database with their commit, in one round trip (tests look). */
    private final java.util.concurrent.atomic.AtomicLong committedWithTheirStatements = new java.util.concurrent.atomic.AtomicLong();

    StoreWriter(DataSource dataSource, SQLDialect dialect, Settings settings) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.settings = settings;
        leader.lock();
        try {
            connect();
        } finally {
            leader.unlock();
        }
    }

    private void connect() {
        try {
            connection = dataSource.getConnection();
            connection.setAutoCommit(false);
        } catch (SQLException e) {
            connection = null;
            throw new StoreException("cannot open the write connection", e);
        }
        ctx = DSL.using(connection, dialect, settings);
        statements = new PreparedStatements(connection, ctx);
    }

    /**
     * After a failed write, rolled back: a connection the database closed is dropped, and true
     * returned. The next write, or {@link #reconnected}, opens another.
     */
    private boolean dropIfBroken() {
        try {
            if (connection.isValid(2)) {
                return false;
            }
        } catch (SQLException ignored) {
            // as broken as can be
        }
        statements.close();
        closeQuietly(connection);
        connection = null;
        return true;
    }

    /** Opens a fresh connection in place of one the database dropped; false when the database is still away. */
    private boolean reconnected() {
        try {
            connect();
            return true;
        } catch (StoreException e) {
            return false;
        }
    }

    /** Whether {@code e} says the connection itself is gone (SQLState 08: connection exception, 57P: the server shut down). */
    private static boolean connectionLost(Throwable e) {
        return sqlStateStartsWith(e, "08", "57P");
    }

    /**
     * Whether the server ended the session (SQLState 57P01–57P03: shut down, crashed, starting): it
     * aborts a transaction in progress, so none was committed.
     */
    private static boolean endedByServer(Throwable e) {
        return sqlStateStartsWith(e, "57P");
    }

    /** Whether an SQLException among {@code e}'s causes has an SQLState starting with one of {@code prefixes}. */
    private static boolean sqlStateStartsWith(Throwable e, String... prefixes) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            // a batch's own exception carries the statement's failure as its next exception
            for (SQLException sql = t instanceof SQLException x ? x : null; sql != null; sql = sql.getNextException()) {
                for (String prefix : prefixes) {
                    if (sql.getSQLState() != null && sql.getSQLState().startsWith(prefix)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // it is being dropped
        }
    }

    /** Told how long each commit took, in nanoseconds (the store's latency metric). */
    public void onCommit(LongConsumer observer) {
        this.commitNanos = observer;
    }

    /** Commits {@code work} (possibly in a group with others); returns when it is durable in the WAL. */
    public void write(Consumer<DSLContext> work) {
        submit(new Write(work, null, new CompletableFuture<>()));
    }

    /**
     * Commits a write that is only {@code steps}, run in order; returns when it is durable. Nothing
     * can look at what a step answered before the commit (on PostgreSQL a group of such writes goes
     * with its commit in one round trip), so the statements must check themselves: a write whose
     * premise no longer holds breaks a constraint, and is {@link WriteRefusedException}, stored not at all.
     */
    public void writeSteps(List<Step> steps) {
        List<Step> mine = List.copyOf(steps);
        submit(new Write(ctx -> runAll(mine), mine, new CompletableFuture<>()));
    }

    /** How many writes went to the database with their commit in one round trip. */
    long committedWithTheirStatements() {
        return committedWithTheirStatements.get();
    }

    private void submit(Write mine) {
        if (closed) {
            throw new IllegalStateException("store is closed");
        }
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
        checkLeader();
        try {
            statements.bind(statement, values).executeUpdate();
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** A statement and its values, one of the steps {@link #runAll} runs. */
    public record Step(PreparedWrite statement, Object... values) {
    }

    /**
     * Runs the steps in order (statements that return no rows) and returns how many rows each
     * changed, or {@link java.sql.Statement#SUCCESS_NO_INFO}: on PostgreSQL in one round trip where
     * one each cost a cell most of its time in the store ({@link PreparedStatements#runAll}). Like
     * {@link #run}, only inside a {@link #write}'s work.
     */
    public int[] runAll(List<Step> steps) {
        checkLeader();
        try {
            return statements.runAll(steps, dialect == SQLDialect.POSTGRES);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** Like {@link #run}, for a statement that returns one number (an {@code UPDATE ... RETURNING}); empty when it returns no row. */
    public java.util.OptionalLong runForNumber(PreparedWrite statement, Object... values) {
        checkLeader();
        try (ResultSet rs = statements.bind(statement, values).executeQuery()) {
            return rs.next() ? java.util.OptionalLong.of(rs.getLong(1)) : java.util.OptionalLong.empty();
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** A statement's failure: the database refused it, or the connection went. */
    private static StoreException failed(SQLException e) {
        return connectionLost(e) ? new StoreException("write failed: the database connection was lost", e)
                : new WriteRefusedException("write refused: " + e.getMessage(), e);
    }

    private void checkLeader() {
        if (!leader.isHeldByCurrentThread()) {
            throw new IllegalStateException("a prepared write runs only inside a write");
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
        if (connection == null) {
            try {
                connect();
            } catch (StoreException e) {
                group.forEach(g -> g.done().completeExceptionally(e));
                return;
            }
        }
        if (dialect == SQLDialect.POSTGRES && onlySteps(group)) {
            commitWithItsStatements(group, true);
        } else if (group.size() == 1) {
            commitAlone(group.get(0), true);
        } else {
            commitGroup(group, true);
        }
    }

    /** Whether every write of the group is only steps, and few enough of them to go in one message. */
    private static boolean onlySteps(List<Write> group) {
        int steps = 0;
        for (Write w : group) {
            if (w.steps() == null) {
                return false;
            }
            steps += w.steps().size();
        }
        return steps <= MAX_STEPS_AT_ONCE;
    }

    /**
     * A group of {@link #writeSteps} on PostgreSQL: every statement and the commit in one round trip,
     * where a transaction the driver begins and commits costs two (the statements, the commit) and the
     * commit's was a cell's largest wait in the store. With auto-commit on, the driver sends one
     * execute's statements with one Sync, and PostgreSQL runs all that comes before a Sync as one
     * implicit transaction: committed when it answers, or (one statement failing) none of it. A refused
     * group is run again write by write in savepoints, which tells the one refused write apart. A
     * connection the server ended (a restart while it was idle) took nothing: the group goes again on
     * a fresh one. Any other connection lost on the way leaves it unknown whether the group was
     * stored: each write fails (a lost commit's risk: its caller may store it again).
     */
    private void commitWithItsStatements(List<Write> group, boolean mayRetry) {
        List<Step> all = new ArrayList<>();
        group.forEach(w -> all.addAll(w.steps()));
        try {
            connection.setAutoCommit(true); // no round trip: no transaction is open between groups
            long t0 = System.nanoTime();
            statements.runAtOnce(all);
            commitNanos.accept(System.nanoTime() - t0);
            committedWithTheirStatements.addAndGet(group.size());
            group.forEach(w -> w.done().complete(null));
        } catch (SQLException e) {
            if (connectionLost(e)) {
                boolean broken = dropIfBroken();
                if (mayRetry && broken && endedByServer(e) && reconnected()) {
                    commitWithItsStatements(group, false);
                    return;
                }
                StoreException lost = new StoreException("write failed: the database connection was lost, whether it was stored is unknown", e);
                group.forEach(w -> w.done().completeExceptionally(lost));
            } else if (group.size() == 1) {
                group.get(0).done().completeExceptionally(failed(e));
            } else if (inTransactionsAgain()) {
                commitGroupIsolatingFailures(group, false);
            } else {
                StoreException broken = new StoreException("write failed", e);
                group.forEach(w -> w.done().completeExceptionally(broken));
            }
        } finally {
            inTransactionsAgain();
        }
    }

    /** The write connection back to transactions the writer commits; false when it is gone. */
    private boolean inTransactionsAgain() {
        try {
            if (connection != null) {
                connection.setAutoCommit(false);
                return true;
            }
        } catch (SQLException e) {
            dropIfBroken();
        }
        return false;
    }

    /**
     * The common case: one write, nothing around it. A write that failed because the database
     * had dropped the connection (a restart since the last write) never reached a commit, so it is
     * run once more on a fresh connection: the first write after a database restart should not fail.
     * A failed commit is not run again: whether it took is unknown.
     */
    private void commitAlone(Write w, boolean mayRetry) {
        boolean committing = false;
        try {
            w.work().accept(ctx);
            committing = true;
            timedCommit();
            w.done().complete(null);
        } catch (RuntimeException | SQLException e) {
            rollbackQuietly();
            if (dropIfBroken() && !committing && mayRetry && reconnected()) {
                commitAlone(w, false);
                return;
            }
            w.done().completeExceptionally(e instanceof RuntimeException r ? r : new StoreException("write failed", e));
        }
    }

    /**
     * Commits the group in one transaction, its writes run back to back. Writes almost never fail, so
     * none pays for the case: only when one does is the whole group rolled back and run again with a
     * savepoint around each write ({@link #commitGroupIsolatingFailures}), which reports the failure
     * to its own caller alone. (A savepoint costs two round trips to PostgreSQL per write, as many
     * as the write's own statements but one.) A write's work may run twice this way, as it may
     * after a lost connection: it starts from scratch.
     */
    private void commitGroup(List<Write> group, boolean mayRetry) {
        try {
            for (Write w : group) {
                w.work().accept(ctx);
            }
        } catch (RuntimeException e) {
            rollbackQuietly();
            commitGroupIsolatingFailures(group, mayRetry);
            return;
        }
        commitAndTell(group);
    }

    /**
     * Commits the group in one transaction; a failing write is rolled back alone and reported to its
     * caller. A lost connection fails no write by itself: the group, none of it committed, runs once
     * more on a fresh connection, as {@link #commitAlone} does.
     */
    private void commitGroupIsolatingFailures(List<Write> group, boolean mayRetry) {
        List<Write> applied = new ArrayList<>();
        for (int i = 0; i < group.size(); i++) {
            Write w = group.get(i);
            try (var sp = new Savepoint(connection)) {
                w.work().accept(ctx);
                sp.release();
                applied.add(w);
            } catch (RuntimeException | SQLException e) {
                if (connectionLost(e)) {
                    rollbackQuietly();
                    dropIfBroken();
                    List<Write> uncommitted = new ArrayList<>(applied);
                    uncommitted.addAll(group.subList(i, group.size()));
                    if (mayRetry && connection == null && reconnected()) {
                        commitGroupIsolatingFailures(uncommitted, false);
                    } else {
                        StoreException lost = new StoreException("write failed: the database connection was lost", e);
                        uncommitted.forEach(u -> u.done().completeExceptionally(lost));
                    }
                    return;
                }
                w.done().completeExceptionally(e instanceof RuntimeException r ? r : new StoreException("write failed", e));
            }
        }
        commitAndTell(applied);
    }

    /** Commits the transaction that holds {@code writes} and tells each of them how it went. */
    private void commitAndTell(List<Write> writes) {
        try {
            timedCommit();
            writes.forEach(w -> w.done().complete(null));
        } catch (SQLException e) {
            writes.forEach(w -> w.done().completeExceptionally(new StoreException("commit failed", e)));
            rollbackQuietly();
            dropIfBroken();
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
            statements.close();
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException ignored) {
            // closing anyway
        } finally {
            leader.unlock();
        }
    }
}
