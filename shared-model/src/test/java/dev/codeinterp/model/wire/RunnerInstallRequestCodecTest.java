package dev.codeinterp.model.wire;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.runner.RunnerInstall;
import dev.codeinterp.model.runner.RunnerMessage;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A cell's {@code %pip install} on the runner's lines: its request, and the server's two answers. */
class RunnerInstallRequestCodecTest {
    @Test
    void a_cells_install_request_is_read_with_its_language_and_packages() {
        assertThat(WireCodec.decodeRunnerLine("{\"type\":\"install_request\",\"id\":\"e1\",\"language\":\"python\",\"packages\":[\"a\",\"b==1\"]}"))
                .isEqualTo(new RunnerMessage.InstallRequest("e1", Language.PYTHON, List.of("a", "b==1")));
        assertThat(WireCodec.decodeRunnerLine("{\"type\":\"install_request\",\"id\":\"e1\",\"packages\":[]}"))
                .as("no language is python").isEqualTo(new RunnerMessage.InstallRequest("e1", Language.PYTHON, List.of()));
    }

    @Test
    void a_malformed_install_request_is_not_protocol() {
        for (String hostile : List.of("{\"type\":\"install_request\",\"id\":\"e1\",\"packages\":[1]}",
                "{\"type\":\"install_request\",\"id\":\"e1\",\"language\":\"cobol\",\"packages\":[]}",
                "{\"type\":\"install_request\",\"packages\":[\"a\"]}")) {
            assertThatThrownBy(() -> WireCodec.decodeRunnerLine(hostile)).as(hostile).isInstanceOf(JsonException.class);
        }
    }

    @Test
    void the_answers_carry_the_cells_id_and_what_to_install_or_why_not() {
        RunnerInstall install = new RunnerInstall(Language.PYTHON, List.of("demo"), true, 12,
                List.of(new RunnerInstall.Artifact("/packages/abc", "abc", null)));
        Map<String, Object> line = Json.parseObject(WireCodec.encodeRunnerInstall("e1", install));
        assertThat(line).containsEntry("type", "install").containsEntry("id", "e1").containsEntry("packages", List.of("demo"))
                .containsEntry("cached", true).containsKey("artifacts");
        assertThat(Json.parseObject(WireCodec.encodeRunnerInstallRefused("e1", "PackageRefused", "no")))
                .isEqualTo(Map.of("type", "install_refused", "id", "e1", "ename", "PackageRefused", "message", "no"));
    }
}
