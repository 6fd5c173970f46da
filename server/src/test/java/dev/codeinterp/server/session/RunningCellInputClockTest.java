package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A running cell's clocks around a wait for input(), on a clock the test moves by hand. */
class RunningCellInputClockTest {
    private static final long S = 1_000_000_000L;
    private static final ExecutionLimits LIMITS = new ExecutionLimits(1 << 20, Duration.ofSeconds(2), 64L << 20, 10,
            RestartPolicy.DEFAULT, Duration.ofSeconds(60));
    private static final Event.InputRequest ASK = new Event.InputRequest("name? ", false);

    private static RunningCell cellWithTimeout(long seconds) {
        return new RunningCell("e1", Duration.ofSeconds(seconds), LIMITS, 0);
    }

    @Test
    void the_timeout_moves_later_by_exactly_the_time_spent_waiting_for_the_answer() {
        RunningCell cell = cellWithTimeout(10);
        assertThat(cell.fromRunner(ASK, 4 * S)).containsExactly(ASK);
        assertThat(cell.awaitingInput()).isTrue();
        assertThat(cell.nextDeadline()).isEqualTo(64 * S); // while waiting only the input limit counts
        assertThat(cell.onClock(30 * S)).isEqualTo(ShutdownLadder.Step.WAIT);
        assertThat(cell.answered(54 * S)).isTrue();
        assertThat(cell.nextDeadline()).isEqualTo(60 * S); // 10 s of running + 50 s of waiting
        assertThat(cell.onClock(59 * S)).isEqualTo(ShutdownLadder.Step.WAIT);
        assertThat(cell.onClock(60 * S)).isEqualTo(ShutdownLadder.Step.INTERRUPT);
    }

    @Test
    void nobody_answering_within_the_input_limit_interrupts_the_cell_as_a_timeout_that_says_why() {
        RunningCell cell = cellWithTimeout(10);
        cell.fromRunner(ASK, S);
        assertThat(cell.onClock(61 * S)).isEqualTo(ShutdownLadder.Step.INTERRUPT);
        assertThat(cell.awaitingInput()).isFalse();
        assertThat(cell.answered(62 * S)).isFalse(); // too late: nothing waits for it
        Event.Error error = cell.ladder().relabel(new Event.Error("KeyboardInterrupt", "", java.util.List.of()));
        assertThat(error.ename()).isEqualTo("TimeoutError");
        assertThat(error.evalue()).contains("input()").contains("60 s");
        assertThat(cell.nextDeadline()).isEqualTo(63 * S); // then the grace period, as for any interrupt
    }

    @Test
    void an_interrupt_ends_the_wait_and_starts_the_grace_period() {
        RunningCell cell = cellWithTimeout(10);
        cell.fromRunner(ASK, S);
        assertThat(cell.interruptRequested(5 * S)).isTrue();
        assertThat(cell.awaitingInput()).isFalse();
        assertThat(cell.nextDeadline()).isEqualTo(7 * S);
        assertThat(cell.onClock(7 * S)).isEqualTo(ShutdownLadder.Step.RESTART);
    }

    @Test
    void a_question_asked_after_an_interrupt_does_not_stop_the_grace_period() {
        RunningCell cell = cellWithTimeout(10);
        cell.interruptRequested(S);
        cell.fromRunner(ASK, 2 * S); // the cell caught KeyboardInterrupt and asks again
        assertThat(cell.awaitingInput()).isFalse();
        assertThat(cell.nextDeadline()).isEqualTo(3 * S);
    }

    @Test
    void an_answer_nobody_asked_for_changes_nothing() {
        RunningCell cell = cellWithTimeout(10);
        assertThat(cell.answered(5 * S)).isFalse();
        assertThat(cell.nextDeadline()).isEqualTo(10 * S);
    }
}
