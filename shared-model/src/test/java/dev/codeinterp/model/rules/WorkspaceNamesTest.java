package dev.codeinterp.model.rules;

import dev.codeinterp.model.json.JsonObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkspaceNamesTest {
    static List<JsonObject> cases() {
        return SharedRuleCases.table("workspace-names.json", "cases");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("cases")
    void every_name_in_the_shared_table_is_accepted_or_refused_as_the_table_says(JsonObject c) {
        String name = c.string("name");
        if (c.has("accepted")) {
            assertThat(WorkspaceNames.check(name)).isEqualTo(c.string("accepted"));
        } else {
            assertThatThrownBy(() -> WorkspaceNames.check(name))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(c.string("refused"));
        }
    }

    @ParameterizedTest
    @MethodSource("loneSurrogates")
    void a_lone_surrogate_is_refused(String name) {
        // not in the shared table: JSON text cannot carry one to every copy alike
        assertThatThrownBy(() -> WorkspaceNames.check(name))
                .hasMessage("file names may not contain unassigned or private-use characters");
    }

    static List<String> loneSurrogates() {
        return List.of("a\ud800b", "a\udc00", "\udbff");
    }
}
