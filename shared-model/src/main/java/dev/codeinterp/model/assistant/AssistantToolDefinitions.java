package dev.codeinterp.model.assistant;

import dev.codeinterp.model.Language;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tools the model is offered, as OpenAI's {@code tools} list: {@code run_code} everywhere,
 * {@code list_files} where the loop can list the workspace (the server). One description in both modes.
 */
public final class AssistantToolDefinitions {
    public static final String RUN_CODE = "run_code";
    public static final String LIST_FILES = "list_files";

    private AssistantToolDefinitions() {
    }

    /** Both tools (server mode). */
    public static List<Object> all() {
        return List.of(runCode(), tool(LIST_FILES, "List the files in the sandbox's working directory: name, size in bytes, type.",
                new LinkedHashMap<>(), List.of()));
    }

    /** {@code run_code} alone (local mode, where the code finds its files by itself). */
    public static List<Object> runCodeOnly() {
        return List.of(runCode());
    }

    private static Object runCode() {
        Map<String, Object> code = property("string", "The complete program to run.");
        Map<String, Object> language = property("string", "python (the default), javascript (Node.js) or bash.");
        language.put("enum", Language.wireNames());
        Map<String, Object> runProperties = new LinkedHashMap<>();
        runProperties.put("code", code);
        runProperties.put("language", language);
        return tool(RUN_CODE, "Run code in this conversation's sandbox and get its output. State persists between calls "
                        + "(variables, imports, files), like notebook cells. The working directory holds the user's files. "
                        + "There is no network. Print what you need to see; charts shown with matplotlib appear to the user.",
                runProperties, List.of("code", "language"));
    }

    private static Map<String, Object> tool(String name, String description, Map<String, Object> properties, List<String> required) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("type", "object");
        parameters.put("properties", properties);
        parameters.put("required", required);
        Map<String, Object> function = new LinkedHashMap<>();
        function.put("name", name);
        function.put("description", description);
        function.put("parameters", parameters);
        Map<String, Object> tool = new LinkedHashMap<>();
        tool.put("type", "function");
        tool.put("function", function);
        return tool;
    }

    private static Map<String, Object> property(String type, String description) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", type);
        p.put("description", description);
        return p;
    }
}
