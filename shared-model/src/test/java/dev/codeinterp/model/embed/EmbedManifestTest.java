package dev.codeinterp.model.embed;

import dev.codeinterp.model.json.JsonException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EmbedManifestTest {
    @Test
    void a_manifest_lists_files_by_name_and_url() {
        EmbedManifest m = EmbedManifest.decode("{\"files\":[{\"name\":\"sales.csv\",\"url\":\"data/sales.csv\"},"
                + "{\"name\":\"logo.png\",\"url\":\"https://shop.example/logo.png\",\"note\":\"extra keys are ignored\"}]}");
        assertThat(m.files()).containsExactly(new EmbedManifest.Entry("sales.csv", "data/sales.csv"),
                new EmbedManifest.Entry("logo.png", "https://shop.example/logo.png"));
    }

    @Test
    void a_broken_or_hostile_manifest_is_refused_with_a_reason() {
        String many = "{\"files\":[" + "{\"name\":\"f\",\"url\":\"u\"},".repeat(EmbedManifest.MAX_FILES) + "{\"name\":\"g\",\"url\":\"u\"}]}";
        for (String bad : new String[] {"", "[]", "{}", "{\"files\":{}}", "{\"files\":[{\"name\":\"a\"}]}",
                "{\"files\":[{\"name\":\"\",\"url\":\"x\"}]}", "{\"files\":[{\"name\":1,\"url\":\"x\"}]}",
                "{\"files\":[{\"name\":\"a\",\"url\":\"x\"},{\"name\":\"a\",\"url\":\"y\"}]}", many, "<html>"}) {
            assertThatThrownBy(() -> EmbedManifest.decode(bad)).as(bad.length() > 80 ? "51 files" : bad).isInstanceOf(JsonException.class);
        }
    }
}
