package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A cell's packages install under their own bound; the cell's timeout starts when the install is reported. */
class RunningCellInstallTest {
    private static final ExecutionLimits LIMITS = new ExecutionLimits(1 << 20, Duration.ofSeconds(2), 512L << 20, 8, RestartPolicy.DEFAULT,
            Duration.ofMinutes(5));
    private static final Event.Install INSTALLED = new Event.Install(Language.PYTHON, List.of("x"), 5000, false);

    @Test
    void installing_runs_under_the_install_bound_and_the_cells_timeout_starts_after_it() {
        long start = System.nanoTime();
        RunningCell cell = new RunningCell("c1", Duration.ofMillis(50), LIMITS, start, Duration.ofSeconds(60));
        assertThat(cell.ladder().nextDeadline() - start).as("the install bound").isEqualTo(Duration.ofSeconds(60).toNanos());
        assertThat(cell.ladder().onClock(start + Duration.ofSeconds(30).toNanos())).as("a long install is no timeout")
                .isEqualTo(ShutdownLadder.Step.WAIT);

        long installedAt = System.nanoTime();
        assertThat(cell.fromRunner(INSTALLED, installedAt)).containsExactly(INSTALLED);
        assertThat(cell.ladder().nextDeadline()).as("the cell's own 50 ms, from the install on")
                .isBetween(installedAt + Duration.ofMillis(50).toNanos(), System.nanoTime() + Duration.ofMillis(50).toNanos());
        assertThat(cell.fromRunner(INSTALLED, System.nanoTime())).as("a second install event is not the runner's to send").isEmpty();
    }

    @Test
    void an_install_past_its_bound_is_stopped_and_said_to_be_the_install() {
        long start = System.nanoTime();
        RunningCell cell = new RunningCell("c1", Duration.ofSeconds(30), LIMITS, start, Duration.ofSeconds(1));
        assertThat(cell.ladder().onClock(start + Duration.ofSeconds(1).toNanos())).isEqualTo(ShutdownLadder.Step.INTERRUPT);
        assertThat(cell.ladder().timeoutError().evalue()).isEqualTo("installing the packages took longer than 1 s, so it was stopped and the cell did not run");
    }

    @Test
    void a_cell_without_packages_ignores_an_install_event() {
        RunningCell cell = new RunningCell("c1", Duration.ofSeconds(1), LIMITS, System.nanoTime());
        assertThat(cell.fromRunner(INSTALLED, System.nanoTime())).isEmpty();
    }
}
