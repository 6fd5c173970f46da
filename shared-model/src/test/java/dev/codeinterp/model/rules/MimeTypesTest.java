package dev.codeinterp.model.rules;

import dev.codeinterp.model.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MimeTypesTest {
    static List<JsonObject> types() {
        return SharedRuleCases.table("mime-types.json", "types");
    }

    static List<JsonObject> inline() {
        return SharedRuleCases.table("mime-types.json", "inline");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void a_file_gets_the_type_the_shared_table_gives_its_name(JsonObject c) {
        assertThat(MimeTypes.of(c.string("name"))).isEqualTo(c.string("mime"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inline")
    void only_raster_images_show_inline_and_svg_never_does(JsonObject c) {
        assertThat(MimeTypes.isInlineImage(c.string("mime"))).isEqualTo(c.optBoolean("inline", false));
    }

    @Test
    void every_extension_in_the_table_is_exercised_by_a_shared_case() {
        List<String> covered = types().stream().map(c -> c.string("name").toLowerCase())
                .map(n -> n.substring(n.lastIndexOf('.') + 1)).toList();
        assertThat(covered).containsAll(MimeTypes.byExtension().keySet());
    }
}
