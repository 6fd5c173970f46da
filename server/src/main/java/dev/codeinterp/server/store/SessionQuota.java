package dev.codeinterp.server.store;

import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;

import static dev.codeinterp.server.store.generated.Tables.SESSIONS;

/**
 * The session limits counted in the store, so they hold across every node sharing it: a key with a
 * quota of 5 gets 5 sessions in the cluster, not 5 per node. Checked in the transaction that inserts
 * the session's row; on PostgreSQL under a transaction-scoped advisory lock, so two nodes admitting
 * at once cannot both take the last place (SQLite's single writer already serialises them). Counted
 * as admission counts: open sessions, neither suspended nor lost with a node.
 */
public record SessionQuota(int perClient, int total) {
    /** Any number: a test, or a tool copying rows, that checks nothing. */
    public static final SessionQuota NONE = new SessionQuota(Integer.MAX_VALUE, Integer.MAX_VALUE);
    private static final long ADMISSION_LOCK = 0x636f6465696e7470L; // "codeintp": one lock, creates are few per second

    /** Which limit a new session would pass. */
    public enum Over { CLIENT, TOTAL }

    /** A new session's row was not written: it would pass {@code over}, with {@code count} sessions counted. */
    public static final class Exceeded extends RuntimeException {
        private final Over over;
        private final int count;

        Exceeded(Over over, int count) {
            super("session limit " + over + " reached at " + count);
            this.over = over;
            this.count = count;
        }

        public Over over() {
            return over;
        }

        public int count() {
            return count;
        }
    }

    /** Counted now, inside {@code ctx}'s transaction: {@link Exceeded} when a new session of {@code client} has no room. */
    void check(DSLContext ctx, String client) {
        if (this.equals(NONE)) {
            return;
        }
        if (ctx.dialect() == SQLDialect.POSTGRES) {
            ctx.execute("SELECT pg_advisory_xact_lock(" + ADMISSION_LOCK + ")");
        }
        Condition counted = SESSIONS.CLOSED_AT.isNull().and(SESSIONS.LOST.isNull()).and(SESSIONS.SUSPENDED_AT.isNull());
        int mine = ctx.fetchCount(SESSIONS, counted.and(SESSIONS.CLIENT.eq(client)));
        if (mine >= perClient) {
            throw new Exceeded(Over.CLIENT, mine);
        }
        int all = ctx.fetchCount(SESSIONS, counted);
        if (all >= total) {
            throw new Exceeded(Over.TOTAL, all);
        }
    }
}
