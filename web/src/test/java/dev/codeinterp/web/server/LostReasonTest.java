package dev.codeinterp.web.server;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What the page says when a session's node was lost: the server's reason as a sentence, or a plain one. */
class LostReasonTest {
    @Test
    void the_servers_reason_is_shown_as_a_sentence() {
        assertThat(ServerSession.lostReason("the node running this session (n2) was lost; its history stays readable, "
                + "its variables and files are gone; start a new session"))
                .isEqualTo("The node running this session (n2) was lost; its history stays readable, "
                        + "its variables and files are gone; start a new session.");
        assertThat(ServerSession.lostReason("The node was lost.")).isEqualTo("The node was lost.");
    }

    @Test
    void without_a_reason_from_the_server_the_page_still_says_what_happened_and_what_to_do() {
        assertThat(ServerSession.lostReason(null)).contains("was lost").contains("Start a new session");
        assertThat(ServerSession.lostReason("  ")).contains("was lost").contains("Start a new session");
    }
}
