package dev.codeinterp.server.session;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The numbers of the default restart policy, as docs/ARCHITECTURE.md gives them. */
class RestartPolicyTest {

    @Test
    void the_first_restart_is_at_once_and_later_ones_back_off_doubling_up_to_eight_seconds() {
        RestartPolicy p = RestartPolicy.DEFAULT;
        assertThat(p.maxRestarts()).isEqualTo(5);
        assertThat(p.window()).isEqualTo(Duration.ofSeconds(60));
        assertThat(p.backoff(1)).isEqualTo(Duration.ZERO);
        assertThat(p.backoff(2)).isEqualTo(Duration.ofSeconds(1));
        assertThat(p.backoff(3)).isEqualTo(Duration.ofSeconds(2));
        assertThat(p.backoff(4)).isEqualTo(Duration.ofSeconds(4));
        assertThat(p.backoff(5)).isEqualTo(Duration.ofSeconds(8));
        assertThat(p.backoff(50)).isEqualTo(Duration.ofSeconds(8));
    }

    @Test
    void deaths_older_than_the_window_are_forgotten() {
        Supervisor supervisor = new Supervisor(new RestartPolicy(1, Duration.ofSeconds(10), Duration.ZERO, Duration.ZERO));
        long t = 0;
        assertThat(supervisor.died(t)).isTrue();
        assertThat(supervisor.died(t + Duration.ofSeconds(11).toNanos())).as("the first death is out of the window").isTrue();
        assertThat(supervisor.died(t + Duration.ofSeconds(12).toNanos())).as("two within 10 s").isFalse();
        assertThat(supervisor.gaveUp()).isTrue();
        supervisor.reset();
        assertThat(supervisor.gaveUp()).isFalse();
        assertThat(supervisor.died(t + Duration.ofSeconds(13).toNanos())).isTrue();
    }
}
