package dev.codeinterp.server.session;

import dev.codeinterp.model.Limit;

import java.util.HashMap;
import java.util.Map;

/**
 * Decides, before any work starts, whether a session may be created: at most so many sessions open
 * in all and per client, and at most so many being created at once (each create may start a sandbox,
 * which is CPU-bound; a flood of creates must not starve the warm pool or the sessions already open).
 * A refusal is immediate and says which limit and when to come back. Counts are in memory; sessions
 * of a previous process are counted again as they are revived.
 */
public final class Admission {
    /** Seconds to wait when the server is full: sessions end only when closed or idle-reaped, so not soon. */
    static final int RETRY_FULL_S = 10;
    /** Seconds to wait for a create slot: a cold sandbox takes about a second (HTTP's Retry-After has no finer unit). */
    static final int RETRY_CREATES_S = 1;
    /** Seconds to wait when a client is over its own quota: it has to close one of its sessions first. */
    static final int RETRY_QUOTA_S = 30;
    /** Seconds to wait when a session's queue is full: cells usually finish within a second. */
    static final int RETRY_QUEUED_S = 1;

    private final AdmissionLimits limits;
    private final Map<String, Integer> openByClient = new HashMap<>();
    private int open;
    private int creating;

    public Admission(AdmissionLimits limits) {
        this.limits = limits;
    }

    public AdmissionLimits limits() {
        return limits;
    }

    /**
     * A session's place, and a create slot when it needs a {@code coldStart} (no warm sandbox was
     * ready: one must be started, which is what the slots bound), held until {@link Ticket#created()}
     * or {@link Ticket#abandon()}. A create served from the warm pool takes no slot.
     */
    public synchronized Ticket admit(Client client, boolean coldStart) {
        int mine = openByClient.getOrDefault(client.id(), 0);
        if (mine >= client.maxSessions()) {
            throw new LimitExceededException(Limit.SESSIONS_PER_CLIENT, RETRY_QUOTA_S, "this client has " + mine
                    + " sessions open, its limit; close one (DELETE /api/v1/sessions/{id}) or let it idle out");
        }
        if (open >= limits.maxSessions()) {
            throw new LimitExceededException(Limit.SESSIONS, RETRY_FULL_S, "the server is full: " + open
                    + " sessions are open, its limit; try again later");
        }
        if (coldStart && creating >= limits.maxConcurrentCreates()) {
            throw new LimitExceededException(Limit.CONCURRENT_CREATES, RETRY_CREATES_S, creating
                    + " sessions are being started at this moment, the most the server starts at once; try again in a second");
        }
        if (coldStart) {
            creating++;
        }
        open++;
        openByClient.merge(client.id(), 1, Integer::sum);
        return new Ticket(client.id(), coldStart);
    }

    /** A session that exists already (revived after a restart): counted, never refused. */
    public synchronized void count(String clientId) {
        open++;
        openByClient.merge(clientId, 1, Integer::sum);
    }

    /** A session closed: its place is free again. */
    public synchronized void release(String clientId) {
        open = Math.max(0, open - 1);
        openByClient.computeIfPresent(clientId, (k, n) -> n <= 1 ? null : n - 1);
    }

    public synchronized int open() {
        return open;
    }

    public synchronized int creating() {
        return creating;
    }

    private synchronized void createEnded() {
        creating--;
    }

    /** One admitted create. Exactly one of its two ends is called. */
    public final class Ticket {
        private final String clientId;
        private final boolean holdsSlot;
        private boolean ended;

        private Ticket(String clientId, boolean holdsSlot) {
            this.clientId = clientId;
            this.holdsSlot = holdsSlot;
        }

        /** The session exists: the create slot is free, the session keeps its place until released. */
        public void created() {
            end(false);
        }

        /** The create failed: slot and place are both free. */
        public void abandon() {
            end(true);
        }

        private void end(boolean releasePlace) {
            synchronized (Admission.this) {
                if (ended) {
                    return;
                }
                ended = true;
                if (holdsSlot) {
                    createEnded();
                }
                if (releasePlace) {
                    release(clientId);
                }
            }
        }
    }
}
