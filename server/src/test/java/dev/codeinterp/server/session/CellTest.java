package dev.codeinterp.server.session;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.runner.CellInput;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every way in builds its cells here: what a request may leave out, and what is refused before anything runs. */
class CellTest {
    private static final CellLimits LIMITS = new CellLimits(10, Duration.ofSeconds(30), Duration.ofMinutes(10));

    @Test
    void a_cell_that_asks_nothing_more_is_python_without_packages_or_input_under_the_default_timeout() {
        Cell cell = LIMITS.cell("1 + 1").build();
        assertThat(cell.code()).isEqualTo("1 + 1");
        assertThat(cell.language()).isEqualTo(Language.PYTHON);
        assertThat(cell.packages()).isEmpty();
        assertThat(cell.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(cell.input()).isEqualTo(CellInput.NONE);
        assertThat(LIMITS.cell("1").language((String) null).packages(null).timeoutSeconds(null).build().language())
                .isEqualTo(Language.PYTHON);
    }

    @Test
    void the_language_is_read_by_its_wire_name_and_an_unknown_one_is_refused() {
        assertThat(LIMITS.cell("ls").language(" Bash ").build().language()).isEqualTo(Language.BASH);
        assertThat(LIMITS.cell("1").language(Language.JAVASCRIPT).build().language()).isEqualTo(Language.JAVASCRIPT);
        assertThatThrownBy(() -> LIMITS.cell("1").language("cobol").build()).isInstanceOf(CellRefusedException.class)
                .hasMessage("language 'cobol' is not supported; use python, javascript or bash");
    }

    @Test
    void code_and_stdin_are_bounded_in_utf8_bytes() {
        assertThat(LIMITS.cell("ééééé").build().code()).as("ten bytes, at the limit").isEqualTo("ééééé");
        assertThatThrownBy(() -> LIMITS.cell("ééééé!").build()).isInstanceOf(CellRefusedException.class)
                .hasMessage("code is larger than 10 bytes");
        assertThat(LIMITS.cell("input()").input(CellInput.lines("0123456789")).build().input().stdin()).isEqualTo("0123456789");
        assertThatThrownBy(() -> LIMITS.cell("input()").input(CellInput.lines("0123456789\n")).build())
                .isInstanceOf(CellRefusedException.class).hasMessage("stdin is larger than 10 bytes");
        assertThat(LIMITS.reply("0123456789")).isEqualTo("0123456789");
        assertThatThrownBy(() -> LIMITS.reply("0123456789+")).isInstanceOf(CellRefusedException.class)
                .hasMessage("input_reply value is larger than 10 bytes");
    }

    @Test
    void a_timeout_is_clamped_to_the_maximum_and_one_that_is_not_positive_is_refused() {
        assertThat(LIMITS.cell("1").timeoutSeconds(2.5).build().timeout()).isEqualTo(Duration.ofMillis(2500));
        assertThat(LIMITS.cell("1").timeoutSeconds(86_400.0).build().timeout()).isEqualTo(Duration.ofMinutes(10));
        for (double bad : new double[] {0, -1, Double.NaN}) {
            assertThatThrownBy(() -> LIMITS.cell("1").timeoutSeconds(bad).build()).isInstanceOf(CellRefusedException.class)
                    .hasMessage("timeout must be a positive number of seconds");
        }
    }

    @Test
    void the_packages_asked_are_kept_as_they_were_when_the_cell_was_built() {
        List<String> asked = new ArrayList<>(List.of("tabulate"));
        Cell cell = LIMITS.cell("1").packages(asked).build();
        asked.add("requests");
        assertThat(cell.packages()).containsExactly("tabulate");
    }
}
