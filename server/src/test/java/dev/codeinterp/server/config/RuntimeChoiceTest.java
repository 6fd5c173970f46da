package dev.codeinterp.server.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Unset, the runtime is gVisor where the engine has it and runc, said as a fallback, where not; set, it is what is set. */
class RuntimeChoiceTest {
    @ParameterizedTest(name = "CODEINTERP_RUNTIME={0}, engine lists [{1}] -> {2} by {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # setting | engine's runtimes (none: no engine answered) | runtime | chosen by | why says
            -         | io.containerd.runc.v2 runc runsc              | runsc   | DEFAULT   | gVisor (runsc) is registered
            -         | runc runsc                                    | runsc   | DEFAULT   | behind gVisor's boundary
            -         | runc                                          | runc    | FALLBACK  | gVisor (runsc) is not registered with the Docker engine
            -         | runc                                          | runc    | FALLBACK  | code runs under runc, without gVisor's boundary
            -         | none                                          | runc    | FALLBACK  | no Docker engine answered at start
            runc      | runc runsc                                    | runc    | SETTING   | CODEINTERP_RUNTIME=runc
            runc      | none                                          | runc    | SETTING   | CODEINTERP_RUNTIME=runc
            runsc     | runc runsc                                    | runsc   | SETTING   | CODEINTERP_RUNTIME=runsc
            runsc     | runc                                          | runsc   | SETTING   | has no runsc runtime registered: server mode is off
            """)
    void the_runtime_follows_the_setting_and_the_engine(String setting, String engine, String runtime,
                                                        RuntimeChoice.ChosenBy chosenBy, String why) {
        List<String> runtimes = engine.equals("none") ? null : Arrays.asList(engine.split(" "));
        RuntimeChoice choice = RuntimeChoice.of(setting.equals("-") ? null : setting, runtimes);
        assertThat(choice.runtime()).isEqualTo(runtime);
        assertThat(choice.chosenBy()).isEqualTo(chosenBy);
        assertThat(choice.fallback()).isEqualTo(chosenBy == RuntimeChoice.ChosenBy.FALLBACK);
        assertThat(choice.why()).contains(why);
    }

    @Test
    void only_a_runtime_the_server_knows_can_be_chosen() {
        assertThatThrownBy(() -> RuntimeChoice.of("kata", List.of("kata", "runc")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("runtime must be one of");
    }

    @Test
    void the_wire_names_how_it_was_chosen_in_lower_case() {
        assertThat(RuntimeChoice.ChosenBy.FALLBACK.wire()).isEqualTo("fallback");
    }
}
