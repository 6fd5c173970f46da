package dev.codeinterp.server.mcp;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.assistant.AssistantToolDefinitions;
import dev.codeinterp.model.json.Json;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One list of languages ({@link Language}): every copy that cannot be made from it (the runner's
 * Python, local mode's JavaScript, the OpenAPI document) is held to it here, and what is made from
 * it (the MCP catalog, the assistant's tools) says every name to the model that reads it.
 */
class LanguageListTest {
    private static final List<String> LANGUAGES = Language.wireNames();

    @Test
    void the_list_is_python_javascript_and_bash_in_that_order() {
        assertThat(LANGUAGES).containsExactly("python", "javascript", "bash");
        assertThat(Language.spokenList()).isEqualTo("python, javascript or bash");
    }

    @Test
    void the_runner_and_local_mode_know_the_same_languages() throws IOException {
        assertThat(quotedNames(Path.of("..", "sandbox-images", "runner", "codeinterp_runner", "protocol.py"),
                "LANGUAGES = \\(([^)]*)\\)")).containsExactlyElementsOf(LANGUAGES);
        assertThat(quotedNames(Path.of("..", "pyodide-assets", "src", "runtime", "cell-limits.mjs"),
                "const LANGUAGES = \\[([^\\]]*)\\]")).containsExactlyElementsOf(LANGUAGES);
    }

    @Test
    void the_openapi_document_names_every_language() throws IOException {
        Map<String, Object> schemas = schemas();
        String execute = (String) property(schemas, "ExecuteRequest", "language").get("description");
        String code = (String) property(schemas, "ExecuteRequest", "code").get("description");
        for (String name : LANGUAGES) {
            assertThat(execute).contains(name);
        }
        assertThat(code).contains("javascript").contains("bash");
        // a queued event names its language when it is not Python: every other language, no unknown one
        assertThat(property(schemas, "QueuedEvent", "language").get("enum")).isEqualTo(LANGUAGES.subList(1, LANGUAGES.size()));
    }

    @Test
    void the_mcp_catalog_and_the_assistants_tools_offer_every_language() {
        ToolCatalog catalog = new ToolCatalog(McpJsonDefaults.getMapper());
        McpSchema.Tool runCode = catalog.runCode();
        @SuppressWarnings("unchecked")
        Map<String, Object> language = (Map<String, Object>) ((Map<String, Object>) runCode.inputSchema().get("properties")).get("language");
        assertThat(language.get("enum")).isEqualTo(LANGUAGES);
        assertThat(runCode.title()).contains("Python", "JavaScript", "bash");
        assertThat(catalog.createSession().title()).doesNotContain("Python");
        String assistant = Json.write(AssistantToolDefinitions.all());
        assertThat(assistant).contains("\"enum\":" + Json.write(LANGUAGES));
    }

    private static List<String> quotedNames(Path file, String pattern) throws IOException {
        Matcher m = Pattern.compile(pattern).matcher(Files.readString(file));
        assertThat(m.find()).as("%s declares its languages as %s", file, pattern).isTrue();
        return Arrays.stream(m.group(1).split(",")).map(s -> s.strip().replaceAll("^['\"]|['\"]$", "")).filter(s -> !s.isEmpty()).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> schemas() throws IOException {
        try (InputStream in = LanguageListTest.class.getResourceAsStream("/api/openapi.json")) {
            Map<String, Object> doc = (Map<String, Object>) Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            return (Map<String, Object>) ((Map<String, Object>) doc.get("components")).get("schemas");
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> property(Map<String, Object> schemas, String schema, String name) {
        return (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) schemas.get(schema)).get("properties")).get(name);
    }
}
