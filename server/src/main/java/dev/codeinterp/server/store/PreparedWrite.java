package dev.codeinterp.server.store;

import org.jooq.DSLContext;
import org.jooq.Query;

import java.util.function.Function;

/**
 * A write the hot path makes many of (every event of every cell): jOOQ renders its SQL once, the
 * write connection keeps it prepared ({@link StoreWriter#run}), and each use only binds values.
 * Rendering a jOOQ query on every insert cost about ten times the SQLite insert itself, and was a
 * third of the server's CPU with 200 busy sessions (JFR, issue 9's benchmark).
 *
 * @param shape the statement with {@code DSL.param()} for each value, in the order they are bound
 */
public record PreparedWrite(Function<DSLContext, Query> shape) {

    /** The statement's SQL, and the JDBC type of each of its values (a null is bound as its column's type). */
    Rendered render(DSLContext ctx) {
        Query query = shape.apply(ctx);
        return new Rendered(query.getSQL(), query.getParams().values().stream().mapToInt(p -> p.getDataType().getSQLType()).toArray());
    }

    /**
     * Values bound with one type on one use and another on the next make PostgreSQL's driver prepare
     * the statement again: an untyped null is such a change, so nulls are bound as their column's type.
     */
    record Rendered(String sql, int[] types) {
    }
}
