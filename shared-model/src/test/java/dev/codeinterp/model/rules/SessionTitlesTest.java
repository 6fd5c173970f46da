package dev.codeinterp.model.rules;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A title is one bounded line of text: whatever arrives, what is kept is safe to show and to store. */
class SessionTitlesTest {

    @Test
    void a_plain_title_is_kept_as_typed() {
        assertThat(SessionTitles.clean("Sales by region, 2024")).isEqualTo("Sales by region, 2024");
    }

    @Test
    void markup_is_kept_as_the_text_it_is() {
        assertThat(SessionTitles.clean("<img src=x onerror=alert(1)> & <b>bold</b>")).isEqualTo("<img src=x onerror=alert(1)> & <b>bold</b>");
    }

    @Test
    void a_ten_kilobyte_title_is_cut_to_two_hundred_code_points() {
        String kept = SessionTitles.clean("x".repeat(10_240));
        assertThat(kept).hasSize(SessionTitles.MAX_CODE_POINTS);
    }

    @Test
    void the_cut_never_splits_a_character_outside_the_basic_plane() {
        String emoji = "\uD83D\uDE00"; // one code point, two chars
        String kept = SessionTitles.clean(emoji.repeat(5_000));
        assertThat(kept.codePointCount(0, kept.length())).isEqualTo(SessionTitles.MAX_CODE_POINTS);
        assertThat(kept).hasSize(2 * SessionTitles.MAX_CODE_POINTS).endsWith(emoji);
    }

    @Test
    void control_and_invisible_characters_become_single_spaces() {
        assertThat(SessionTitles.clean("a\u0000b\nc\r\n\td\u0007e\u202Ef\u200Bg\u2028h\u0085i\u001B[31mj"))
                .isEqualTo("a b c d e f g h i [31mj");
    }

    @Test
    void white_space_is_collapsed_and_trimmed() {
        assertThat(SessionTitles.clean("  \t two   words \n ")).isEqualTo("two words");
    }

    @Test
    void a_title_of_nothing_but_blanks_clears_it() {
        assertThat(SessionTitles.clean("")).isNull();
        assertThat(SessionTitles.clean(" \n\u0000\u200B ")).isNull();
        assertThat(SessionTitles.clean(null)).isNull();
    }

    @Test
    void a_lone_surrogate_becomes_the_replacement_character() {
        assertThat(SessionTitles.clean("a\uD800b")).isEqualTo("a\uFFFDb");
    }

    @Test
    void a_cut_that_lands_after_a_space_leaves_no_trailing_space() {
        String kept = SessionTitles.clean("y".repeat(199) + " zzz");
        assertThat(kept).isEqualTo("y".repeat(199));
    }
}
