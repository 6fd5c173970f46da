package dev.codeinterp.server.store;

import dev.codeinterp.server.config.DatabaseSettings;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.Record2;
import org.jooq.Table;
import org.jooq.TableRecord;
import org.jooq.impl.DSL;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.codeinterp.server.store.generated.Tables.EVENTS;
import static dev.codeinterp.server.store.generated.Tables.EXECUTIONS;
import static dev.codeinterp.server.store.generated.Tables.MCP_SESSIONS;
import static dev.codeinterp.server.store.generated.Tables.MCP_SESSION_CODE_SESSIONS;
import static dev.codeinterp.server.store.generated.Tables.NODES;
import static dev.codeinterp.server.store.generated.Tables.SESSIONS;

/**
 * {@code copy-store}: an install's SQLite store into an empty PostgreSQL database, every row of
 * sessions (with who opened each: the key's name), cells and events, and the MCP sessions (so an MCP
 * client goes on with its id after the move), in one transaction, then
 * checked: the same counts, and every session's last seq the same on both sides. A target that holds
 * any table (ours with rows, or anyone else's) is refused before anything is written to it.
 */
public final class StoreCopy {
    private static final int PAGE = 5000;
    /** The tables a freshly migrated, empty store has. */
    private static final Set<String> OURS = Set.of("sessions", "executions", "events", "nodes", "mcp_sessions",
            "mcp_session_code_sessions", "flyway_schema_history");

    /** What was copied, as checked on the target. */
    public record Copied(int sessions, int executions, int events) {
    }

    /** Thrown when the copy is refused or does not check out; its message is for the operator. */
    public static final class CopyRefusedException extends RuntimeException {
        CopyRefusedException(String message) {
            super(message);
        }
    }

    private StoreCopy() {
    }

    public static Copied copy(Path sqliteFile, DatabaseSettings target) {
        if (!target.postgres()) {
            throw new CopyRefusedException("copy-store --to needs a jdbc:postgresql:// URL");
        }
        if (!Files.isRegularFile(sqliteFile)) {
            throw new CopyRefusedException("no SQLite store at " + sqliteFile + " (set CODEINTERP_DATA_DIR, or --from FILE)");
        }
        List<String> foreign = PostgresConnections.tables(target).stream().filter(t -> !OURS.contains(t)).toList();
        if (!foreign.isEmpty()) {
            throw new CopyRefusedException(target.where() + " is not empty (it holds " + String.join(", ", foreign)
                    + "): copy-store writes only into an empty database");
        }
        try (Database from = Database.open(sqliteFile); Database to = Database.open(target, sqliteFile)) {
            int already = to.read(ctx -> ctx.fetchCount(SESSIONS) + ctx.fetchCount(EXECUTIONS) + ctx.fetchCount(EVENTS) + ctx.fetchCount(NODES)
                    + ctx.fetchCount(MCP_SESSIONS));
            if (already > 0) {
                throw new CopyRefusedException(target.where() + " already holds a store (" + already
                        + " rows): copy-store writes only into an empty database");
            }
            to.writer().write(into -> {
                copyAll(from, into, NODES, NODES.ID, null); // the node's key: the same server, moved to PostgreSQL, is still itself
                copyAll(from, into, SESSIONS, SESSIONS.ID, null);
                copyAll(from, into, EXECUTIONS, EXECUTIONS.ID, null);
                copyAll(from, into, EVENTS, EVENTS.SESSION_ID, EVENTS.SEQ);
                copyAll(from, into, MCP_SESSIONS, MCP_SESSIONS.ID, null);
                copyWhole(from, into, MCP_SESSION_CODE_SESSIONS); // a few rows per MCP session (its client's quota bounds them)
            });
            return verify(from, to);
        }
    }

    /** Copies {@code table} a page at a time, in key order (keyset paging: no page costs more than the first). */
    private static <R extends TableRecord<R>> void copyAll(Database from, DSLContext into, Table<R> table,
                                                          org.jooq.TableField<R, String> key, org.jooq.TableField<R, Long> key2) {
        String afterKey = null;
        long afterKey2 = 0;
        while (true) {
            String k = afterKey;
            long k2 = afterKey2;
            List<R> page = from.read(ctx -> {
                var where = k == null ? DSL.noCondition()
                        : key2 == null ? key.gt(k) : DSL.row(key, key2).gt(DSL.row(DSL.val(k), DSL.val(k2)));
                List<org.jooq.SortField<?>> order = key2 == null ? List.of(key.asc()) : List.of(key.asc(), key2.asc());
                return ctx.selectFrom(table).where(where).orderBy(order).limit(PAGE).fetch();
            });
            if (page.isEmpty()) {
                return;
            }
            List<Query> inserts = new ArrayList<>(page.size());
            for (R r : page) {
                r.changed(true); // a fetched record has no changed values, and INSERT ... SET(record) takes only those
                inserts.add(into.insertInto(table).set(r));
            }
            into.batch(inserts).execute();
            R last = page.get(page.size() - 1);
            afterKey = last.get(key);
            afterKey2 = key2 == null ? 0 : last.get(key2);
        }
    }

    /** Copies a small table in one go. */
    private static <R extends TableRecord<R>> void copyWhole(Database from, DSLContext into, Table<R> table) {
        List<Query> inserts = new ArrayList<>();
        for (R r : from.read(ctx -> ctx.selectFrom(table).fetch())) {
            r.changed(true);
            inserts.add(into.insertInto(table).set(r));
        }
        if (!inserts.isEmpty()) {
            into.batch(inserts).execute();
        }
    }

    private static Copied verify(Database from, Database to) {
        Copied source = counts(from);
        Copied target = counts(to);
        if (!source.equals(target)) {
            throw new CopyRefusedException("the copy does not check out: the SQLite store has " + source + ", the copy " + target);
        }
        Map<String, Long> sourceLast = lastSeqs(from);
        Map<String, Long> targetLast = lastSeqs(to);
        if (!sourceLast.equals(targetLast)) {
            throw new CopyRefusedException("the copy does not check out: the last seq of some sessions differs");
        }
        Map<String, Long> counters = to.read(ctx -> ctx.select(SESSIONS.ID, SESSIONS.LAST_SEQ).from(SESSIONS).fetchMap(SESSIONS.ID, SESSIONS.LAST_SEQ));
        for (var e : counters.entrySet()) {
            if (e.getValue() != sourceLast.getOrDefault(e.getKey(), 0L)) {
                throw new CopyRefusedException("the copy does not check out: session " + e.getKey() + " would number its next event "
                        + (e.getValue() + 1) + ", after " + sourceLast.getOrDefault(e.getKey(), 0L));
            }
        }
        return target;
    }

    private static Copied counts(Database db) {
        return db.read(ctx -> new Copied(ctx.fetchCount(SESSIONS), ctx.fetchCount(EXECUTIONS), ctx.fetchCount(EVENTS)));
    }

    /** Every session's newest event number, from the events themselves. */
    private static Map<String, Long> lastSeqs(Database db) {
        return db.read(ctx -> ctx.select(EVENTS.SESSION_ID, DSL.max(EVENTS.SEQ)).from(EVENTS).groupBy(EVENTS.SESSION_ID)
                .fetchMap(Record2::value1, Record2::value2));
    }
}
