package dev.codeinterp.server.session.residency;

import dev.codeinterp.server.session.SessionNotFoundException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionTransitionsTest {
    private final SessionTransitions transitions = new SessionTransitions();

    @Test
    void a_session_changes_one_way_at_a_time_and_is_free_again_when_the_change_ends() {
        SessionTransitions.Transition suspending = transitions.begin("s1");
        assertThat(suspending).isNotNull();
        assertThat(transitions.begin("s1")).as("a move while it is being suspended").isNull();
        assertThat(transitions.begin("s2")).as("another session").isNotNull();

        suspending.close();

        assertThat(transitions.underway("s1")).isFalse();
        assertThat(transitions.begin("s1")).isNotNull();
    }

    @Test
    void who_asks_meanwhile_waits_for_the_end_and_then_finds_the_session_free() throws Exception {
        SessionTransitions.Transition resuming = transitions.begin("s1");
        CompletableFuture<Boolean> freeAfterWaiting = CompletableFuture.supplyAsync(() -> {
            boolean waited = transitions.awaitAny("s1");
            return waited && !transitions.underway("s1");
        });
        Thread.sleep(100);
        assertThat(freeAfterWaiting).isNotDone();

        resuming.close();

        assertThat(freeAfterWaiting.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(transitions.awaitAny("s1")).as("nothing under way: no wait").isFalse();
    }

    @Test
    void a_failed_change_is_told_to_its_own_caller_and_not_to_those_who_waited() throws Exception {
        SessionTransitions.Transition resuming = transitions.begin("s1");
        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> transitions.awaitAny("s1"));
        Thread.sleep(100);

        resuming.fail(new SessionNotFoundException());
        resuming.close();

        assertThat(waiter.get(5, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> resuming.ended().get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(SessionNotFoundException.class);
    }
}
