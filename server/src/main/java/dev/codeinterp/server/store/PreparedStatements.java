package dev.codeinterp.server.store;

import org.jooq.DSLContext;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The statements prepared on the writer's connection: each {@link PreparedWrite} once, and on
 * PostgreSQL each sequence of them a write runs together ({@link #runAll}). Used by the writer's
 * leader only, as the connection is; closed with the connection.
 */
final class PreparedStatements implements AutoCloseable {
    /** Longer sequences go as batches: the shapes of big ones would be many, each prepared on the server. */
    private static final int MAX_COMPOSED = 16;
    /** A cell makes a handful of shapes (its events' count varies); the least used beyond these are closed. */
    private static final int MAX_SHAPES = 64;

    private record Prepared(PreparedStatement statement, int[] types) {
    }

    private final Connection connection;
    private final DSLContext ctx;
    private final Map<PreparedWrite, Prepared> single = new IdentityHashMap<>();
    /** Each statement's SQL, rendered once: rendering is what preparing a statement of several costs most here. */
    private final Map<PreparedWrite, PreparedWrite.Rendered> rendered = new IdentityHashMap<>();
    private final Map<List<PreparedWrite>, Prepared> composed = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<List<PreparedWrite>, Prepared> eldest) {
            if (size() <= MAX_SHAPES) {
                return false;
            }
            StoreWriter.closeQuietly(eldest.getValue().statement());
            return true;
        }
    };

    PreparedStatements(Connection connection, DSLContext ctx) {
        this.connection = connection;
        this.ctx = ctx;
    }

    /** {@code statement}, prepared once, with {@code values} bound. */
    PreparedStatement bind(PreparedWrite statement, Object... values) throws SQLException {
        Prepared p = single.get(statement);
        if (p == null) {
            p = prepare(List.of(rendered(statement)));
            single.put(statement, p);
        }
        return bindValues(p, values);
    }

    /**
     * Runs the steps in order and answers each one's update count. With {@code together} (PostgreSQL),
     * up to {@link #MAX_COMPOSED} of them are one statement of several, which the driver sends in one
     * round trip and answers each of; otherwise each run of the same statement is one JDBC batch
     * (SQLite runs them one by one anyway: a statement there is a function call).
     */
    int[] runAll(List<StoreWriter.Step> steps, boolean together) throws SQLException {
        return together && steps.size() > 1 && steps.size() <= MAX_COMPOSED ? runComposed(steps) : runInBatches(steps);
    }

    /**
     * Runs the steps as one statement of several, however many (PostgreSQL: one round trip). A few,
     * as one write makes, are a shape kept prepared; more, as a group of writes makes, are rarely twice
     * alike and are prepared for this use only, so they do not crowd out the shapes that recur.
     */
    int[] runAtOnce(List<StoreWriter.Step> steps) throws SQLException {
        if (steps.size() <= MAX_COMPOSED) {
            return runComposed(steps);
        }
        List<Object> values = new ArrayList<>();
        for (StoreWriter.Step step : steps) {
            values.addAll(Arrays.asList(step.values()));
        }
        Prepared once = prepare(steps.stream().map(step -> rendered(step.statement())).toList());
        try {
            return counts(bindValues(once, values.toArray()), steps.size());
        } finally {
            StoreWriter.closeQuietly(once.statement());
        }
    }

    private int[] runComposed(List<StoreWriter.Step> steps) throws SQLException {
        List<PreparedWrite> shape = new ArrayList<>(steps.size());
        List<Object> values = new ArrayList<>();
        for (StoreWriter.Step step : steps) {
            shape.add(step.statement());
            values.addAll(Arrays.asList(step.values()));
        }
        Prepared p = composed.get(shape);
        if (p == null) {
            p = prepare(shape.stream().map(this::rendered).toList());
            composed.put(shape, p);
        }
        return counts(bindValues(p, values.toArray()), steps.size());
    }

    /** Runs a statement of several and answers each one's update count. */
    private static int[] counts(PreparedStatement ps, int statements) throws SQLException {
        int[] counts = new int[statements];
        ps.execute();
        for (int i = 0; i < counts.length; i++) {
            counts[i] = ps.getUpdateCount();
            ps.getMoreResults();
        }
        return counts;
    }

    private int[] runInBatches(List<StoreWriter.Step> steps) throws SQLException {
        int[] counts = new int[steps.size()];
        for (int from = 0; from < steps.size(); ) {
            PreparedWrite statement = steps.get(from).statement();
            int to = from + 1;
            while (to < steps.size() && steps.get(to).statement() == statement) {
                to++;
            }
            if (to - from == 1) {
                counts[from] = bind(statement, steps.get(from).values()).executeUpdate();
            } else {
                PreparedStatement ps = null;
                for (int i = from; i < to; i++) {
                    ps = bind(statement, steps.get(i).values());
                    ps.addBatch();
                }
                System.arraycopy(ps.executeBatch(), 0, counts, from, to - from);
            }
            from = to;
        }
        return counts;
    }

    private PreparedWrite.Rendered rendered(PreparedWrite statement) {
        return rendered.computeIfAbsent(statement, w -> w.render(ctx));
    }

    /** One statement, or several run as one. */
    private Prepared prepare(List<PreparedWrite.Rendered> statements) throws SQLException {
        String sql = String.join(";\n", statements.stream().map(PreparedWrite.Rendered::sql).toList());
        int[] types = statements.stream().flatMapToInt(r -> Arrays.stream(r.types())).toArray();
        return new Prepared(connection.prepareStatement(sql), types);
    }

    private static PreparedStatement bindValues(Prepared p, Object[] values) throws SQLException {
        PreparedStatement ps = p.statement();
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                ps.setNull(i + 1, p.types()[i]);
            } else {
                ps.setObject(i + 1, values[i]);
            }
        }
        return ps;
    }

    @Override
    public void close() {
        for (Prepared p : single.values()) {
            StoreWriter.closeQuietly(p.statement());
        }
        single.clear();
        for (Prepared p : composed.values()) {
            StoreWriter.closeQuietly(p.statement());
        }
        composed.clear();
    }
}
