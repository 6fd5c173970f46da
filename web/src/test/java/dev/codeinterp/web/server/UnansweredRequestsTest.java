package dev.codeinterp.web.server;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Each answer on a socket belongs to the oldest request sent on it, whichever kind it is. */
class UnansweredRequestsTest {
    @Test
    void a_refused_prompt_is_not_pinned_on_the_cell_sent_after_it() {
        UnansweredRequests line = new UnansweredRequests();
        line.sent(UnansweredRequests.Kind.PROMPT, "plot it");
        line.sent(UnansweredRequests.Kind.CELL, "1+1");
        assertThat(line.refused()).isEqualTo(new UnansweredRequests.Request(UnansweredRequests.Kind.PROMPT, "plot it"));
        assertThat(line.accepted(UnansweredRequests.Kind.CELL, "1+1")).isTrue();
        assertThat(line.refused()).isNull();
    }

    @Test
    void a_queued_cell_someone_else_sent_is_not_taken_for_ours() {
        UnansweredRequests line = new UnansweredRequests();
        line.sent(UnansweredRequests.Kind.CELL, "x = 1");
        assertThat(line.accepted(UnansweredRequests.Kind.CELL, "print('from another tab')")).isFalse();
        assertThat(line.accepted(UnansweredRequests.Kind.PROMPT, "x = 1")).as("same text, other kind").isFalse();
        assertThat(line.accepted(UnansweredRequests.Kind.CELL, "x = 1")).isTrue();
    }

    @Test
    void a_dropped_socket_gives_back_its_cells_oldest_first_and_forgets_its_prompts() {
        UnansweredRequests line = new UnansweredRequests();
        line.sent(UnansweredRequests.Kind.CELL, "a");
        line.sent(UnansweredRequests.Kind.PROMPT, "explain");
        line.sent(UnansweredRequests.Kind.CELL, "b");
        assertThat(line.dropped()).containsExactly("a", "b");
        assertThat(line.dropped()).isEmpty();
        assertThat(line.refused()).isNull();
    }
}
