package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.StreamName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A running cell's clock around its {@code %pip install}, on a clock the test moves by hand. */
class RunningCellPipClockTest {
    private static final long S = 1_000_000_000L;
    private static final ExecutionLimits LIMITS = new ExecutionLimits(1 << 20, Duration.ofSeconds(2), 64L << 20, 10,
            RestartPolicy.DEFAULT, Duration.ofSeconds(60));
    private static final Duration BOUND = Duration.ofSeconds(100);
    private static final Event.Install INSTALLED = new Event.Install(Language.PYTHON, List.of("demo"), 1500, false);

    private static RunningCell cellWithTimeout(long seconds) {
        return new RunningCell("e1", Duration.ofSeconds(seconds), LIMITS, 0);
    }

    @Test
    void the_fetch_and_the_install_do_not_count_against_the_cells_timeout() {
        RunningCell cell = cellWithTimeout(10);
        long request = cell.packagesRequested(4 * S, BOUND);
        assertThat(cell.awaitingPackages(request)).isTrue();
        assertThat(cell.nextDeadline()).isEqualTo(104 * S); // while installing only the install bound counts
        assertThat(cell.onClock(50 * S)).isEqualTo(ShutdownLadder.Step.WAIT);
        assertThat(cell.fromRunner(INSTALLED, 54 * S)).as("the runner's install event ends the pause and is shown")
                .containsExactly(INSTALLED);
        assertThat(cell.awaitingPackages(request)).isFalse();
        assertThat(cell.nextDeadline()).isEqualTo(60 * S); // 10 s of running + 50 s of installing
    }

    @Test
    void any_event_after_the_request_restarts_the_clock_so_a_refusal_the_cell_catches_cannot_run_on_unbounded() {
        RunningCell cell = cellWithTimeout(10);
        cell.packagesRequested(S, BOUND);
        Event.Stream caught = new Event.Stream(StreamName.STDOUT, "PackageRefused\n");
        assertThat(cell.fromRunner(caught, 3 * S)).containsExactly(caught);
        assertThat(cell.nextDeadline()).isEqualTo(12 * S);
    }

    @Test
    void an_install_that_outlasts_its_bound_interrupts_the_cell_as_a_timeout_that_says_why() {
        RunningCell cell = cellWithTimeout(10);
        long request = cell.packagesRequested(S, BOUND);
        assertThat(cell.onClock(101 * S)).isEqualTo(ShutdownLadder.Step.INTERRUPT);
        assertThat(cell.awaitingPackages(request)).as("a late answer goes nowhere").isFalse();
        Event.Error error = cell.ladder().relabel(new Event.Error("KeyboardInterrupt", "", List.of()));
        assertThat(error.ename()).isEqualTo("TimeoutError");
        assertThat(error.evalue()).contains("%pip install").contains("100 s");
    }

    @Test
    void an_interrupt_ends_the_wait_and_nothing_more_is_fetched() {
        RunningCell cell = cellWithTimeout(10);
        long first = cell.packagesRequested(S, BOUND);
        assertThat(cell.interruptRequested(2 * S)).isTrue();
        assertThat(cell.awaitingPackages(first)).isFalse();
        assertThat(cell.packagesRequested(3 * S, BOUND)).as("once interrupted, nothing more is fetched").isEqualTo(-1);
        assertThat(cell.nextDeadline()).isEqualTo(4 * S); // the grace period runs
    }

    @Test
    void the_answer_to_an_earlier_request_is_not_taken_for_the_current_one() {
        RunningCell cell = cellWithTimeout(10);
        long first = cell.packagesRequested(S, BOUND);
        long second = cell.packagesRequested(3 * S, BOUND);
        assertThat(second).isNotEqualTo(first);
        assertThat(cell.awaitingPackages(first)).isFalse();
        assertThat(cell.awaitingPackages(second)).isTrue();
    }

    @Test
    void an_install_event_nobody_asked_for_is_not_shown() {
        RunningCell cell = cellWithTimeout(10);
        assertThat(cell.fromRunner(INSTALLED, S)).isEmpty();
    }
}
