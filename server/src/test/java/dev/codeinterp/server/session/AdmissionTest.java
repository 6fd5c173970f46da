package dev.codeinterp.server.session;

import dev.codeinterp.model.Limit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Admission decides before any work starts; no Docker needed. */
class AdmissionTest {
    private final Client alice = Client.ofKey("alice", 2);
    private final Client bob = Client.ofKey("bob", 5);

    private static Limit refusal(Runnable r) {
        try {
            r.run();
        } catch (LimitExceededException e) {
            assertThat(e.retryAfterSeconds()).isPositive();
            return e.limit();
        }
        throw new AssertionError("not refused");
    }

    @Test
    void a_client_over_its_own_quota_is_refused_while_others_still_get_sessions() {
        Admission admission = new Admission(new AdmissionLimits(10, 2, 4, 10));
        admission.admit(alice, true).created();
        admission.admit(alice, true).created();
        assertThat(refusal(() -> admission.admit(alice, true))).isEqualTo(Limit.SESSIONS_PER_CLIENT);
        admission.admit(bob, true).created();
        admission.release(alice.id());
        admission.admit(alice, true).created();
        assertThat(admission.open()).isEqualTo(3);
    }

    @Test
    void a_full_server_refuses_everyone_until_a_session_closes() {
        Admission admission = new Admission(new AdmissionLimits(2, 5, 4, 10));
        admission.admit(alice, true).created();
        admission.admit(bob, true).created();
        assertThat(refusal(() -> admission.admit(bob, true))).isEqualTo(Limit.SESSIONS);
        admission.release(alice.id());
        admission.admit(bob, true).created();
    }

    @Test
    void creates_in_flight_are_bounded_and_a_failed_create_gives_its_place_back() {
        Admission admission = new Admission(new AdmissionLimits(10, 10, 4, 2));
        Admission.Ticket first = admission.admit(bob, true);
        Admission.Ticket second = admission.admit(bob, true);
        assertThat(refusal(() -> admission.admit(alice, true))).isEqualTo(Limit.CONCURRENT_CREATES);
        assertThat(admission.creating()).isEqualTo(2);
        first.abandon();
        second.created();
        second.abandon(); // a ticket ends once; the second end changes nothing
        assertThat(admission.creating()).isZero();
        assertThat(admission.open()).isEqualTo(1);
        admission.admit(alice, true).created();
    }

    @Test
    void a_create_served_from_the_warm_pool_needs_no_create_slot_but_still_counts_as_a_session() {
        Admission admission = new Admission(new AdmissionLimits(3, 10, 4, 1));
        Admission.Ticket cold = admission.admit(bob, true);
        assertThat(refusal(() -> admission.admit(bob, true))).isEqualTo(Limit.CONCURRENT_CREATES);
        admission.admit(bob, false).created();
        admission.admit(bob, false).created();
        assertThat(refusal(() -> admission.admit(bob, false))).isEqualTo(Limit.SESSIONS);
        cold.created();
        assertThat(admission.creating()).isZero();
    }

    @Test
    void revived_sessions_are_counted_but_never_refused() {
        Admission admission = new Admission(new AdmissionLimits(1, 1, 4, 1));
        admission.count("key:alice");
        admission.count("key:alice");
        assertThat(admission.open()).isEqualTo(2);
        assertThat(refusal(() -> admission.admit(bob, true))).isEqualTo(Limit.SESSIONS);
    }
}
