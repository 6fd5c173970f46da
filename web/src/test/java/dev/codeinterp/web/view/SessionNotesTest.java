package dev.codeinterp.web.view;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.health.Health;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What the page says of a session's life between cells: a resume is quiet news, a lost-at-idle is said plainly. */
class SessionNotesTest {
    @Test
    void a_resume_says_how_long_it_took_and_that_the_variables_are_kept() {
        assertThat(SessionNotes.resumed(new Event.Resumed(412))).isEqualTo("Session resumed from disk in 412 ms — variables kept.");
        assertThat(SessionNotes.resumed(new Event.Resumed(1234))).startsWith("Session resumed from disk in 1.2 s");
    }

    @Test
    void where_idle_sessions_are_closed_the_note_says_when_what_goes_and_why() {
        String note = SessionNotes.idle(new Health.Idle(false, 3600,
                "the runc runtime cannot checkpoint sandboxes here (only gVisor's runsc can)"));
        assertThat(note).isEqualTo("Variables are kept while you work, not past idle: after 1 h without use this session is "
                + "closed, its variables and files with it. This server cannot keep them: the runc runtime cannot checkpoint "
                + "sandboxes here (only gVisor's runsc can).");
        assertThat(SessionNotes.idle(new Health.Idle(false, 900, "no Docker engine answers: refused. ")))
                .endsWith("after 15 min without use this session is closed, its variables and files with it. "
                        + "This server cannot keep them: no Docker engine answers: refused.");
        assertThat(SessionNotes.idle(new Health.Idle(false, 60, null))).endsWith("its variables and files with it.");
    }

    @Test
    void where_idle_sessions_keep_their_variables_or_the_server_does_not_say_there_is_nothing_to_warn_of() {
        assertThat(SessionNotes.idle(new Health.Idle(true, 900, null))).isNull();
        assertThat(SessionNotes.idle(null)).isNull();
    }
}
