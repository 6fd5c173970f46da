package dev.codeinterp.server.session;

import dev.codeinterp.model.Limit;
import dev.codeinterp.server.store.SessionQuota;

/** The quotas the store counts across every node, for a create or a fork, and their refusal said as admission says it. */
public final class SessionQuotas {
    private SessionQuotas() {
    }

    /** The client's quota and MAX_SESSIONS, as the store counts them across every node. */
    public static SessionQuota of(Client client, Admission admission) {
        return new SessionQuota(client.maxSessions(), admission.limits().maxSessions());
    }

    /** A limit the store found passed (other nodes' sessions count too), said as admission says it. */
    public static LimitExceededException refusal(SessionQuota.Exceeded e) {
        return e.over() == SessionQuota.Over.CLIENT
                ? new LimitExceededException(Limit.SESSIONS_PER_CLIENT, Admission.RETRY_QUOTA_S, "this client has " + e.count()
                        + " sessions open in the cluster, its limit; close one (DELETE /api/v1/sessions/{id}) or let it idle out")
                : new LimitExceededException(Limit.SESSIONS, Admission.RETRY_FULL_S, "the cluster is full: " + e.count()
                        + " sessions are open, its limit; try again later");
    }
}
