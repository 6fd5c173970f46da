package dev.codeinterp.model.rules;

import dev.codeinterp.model.json.JsonObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class EmbedOriginMatchTest {
    static List<JsonObject> cases() {
        return SharedRuleCases.table("embed-origins.json", "cases");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void an_origin_is_allowed_exactly_when_the_shared_table_says(JsonObject c) {
        assertThat(EmbedOriginMatch.allowed(c.string("origin"), c.stringList("sources"))).isEqualTo(c.optBoolean("allowed", false));
    }
}
