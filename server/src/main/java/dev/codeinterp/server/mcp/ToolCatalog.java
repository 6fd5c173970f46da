package dev.codeinterp.server.mcp;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.json.Json;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/** The tools as an LLM sees them: names, descriptions that say when to use which, and input schemas. */
final class ToolCatalog {
    private static final String SESSION_ID = """
            "session_id": {"type": "string", "maxLength": 128,
              "description": "A session_id returned by create_session in this MCP session."}""";

    private final McpJsonMapper json;

    ToolCatalog(McpJsonMapper json) {
        this.json = json;
    }

    Tool runCode() {
        return tool("run_code", "Run Python, JavaScript or bash code",
                """
                Runs Python 3 (the default), JavaScript (Node.js) or bash code in an isolated sandbox (no network; \
                numpy, pandas, matplotlib, scipy and other common Python packages are installed) and returns its \
                stdout, stderr, the value of the last expression, any error with its traceback, and every matplotlib figure or other PNG as an image. \
                Without session_id each call is a fresh interpreter that is thrown away afterwards (files it \
                writes come back in the result). With a session_id from create_session, the code runs in that \
                session's interpreter: variables, imports and files persist between calls.""",
                """
                {"type": "object", "properties": {
                  "code": {"type": "string", "description": "The source to run, as in a notebook cell."},
                  "language": {"type": "string", "enum": %s, "description": "\\"python\\" (the default), \\"javascript\\" (Node.js, REPL semantics) or \\"bash\\"; in a session each language keeps its own state and all share the files."},
                  "timeout": {"type": "number",
                    "description": "Seconds the code may run before it is stopped; the server's default and maximum apply."},
                  "packages": {"type": "array", "maxItems": 32,
                    "items": {"type": "string", "maxLength": 214},
                    "description": "Packages to install before the code runs (python: names from the package index, optionally name==version; javascript: npm names, optionally name@version). Only names on the server's allowlist are installed; any other refuses the call and the code does not run. Installing does not count against the timeout."},
                  %s
                }, "required": ["code"], "additionalProperties": false}""".formatted(languages(), SESSION_ID));
    }

    Tool createSession() {
        return tool("create_session", "Start a session",
                """
                Starts a stateful session (Python, JavaScript and bash, each keeping its own state, all sharing \
                the files) and returns its session_id. Use it when work spans several \
                run_code calls (keep variables or loaded data) or needs files uploaded first. The session \
                belongs to this MCP connection, ends with it, and should be closed with close_session when done.""",
                """
                {"type": "object", "properties": {}, "additionalProperties": false}""");
    }

    Tool forkSession() {
        return sessionTool("fork_session", "Fork a session",
                """
                Starts a second session that is a copy of this one as it is now: the same variables, imports and \
                files. Both go on independently afterwards (try two approaches from one loaded state). Returns \
                the new session_id; close it with close_session when done. Fails while code runs in the session, \
                and on servers whose sandboxes cannot be copied (the error says why).""");
    }

    Tool closeSession() {
        return sessionTool("close_session", "Close a session",
                "Ends a session: its interpreter and every file in its workspace are gone afterwards.");
    }

    Tool interrupt() {
        return sessionTool("interrupt", "Interrupt running code",
                "Interrupts the code running in a session (KeyboardInterrupt) and drops cells waiting behind it; variables are kept.");
    }

    Tool restart() {
        return sessionTool("restart", "Restart the interpreter",
                "Replaces a session's interpreter with a fresh one: all variables and imports are lost; files in the workspace stay.");
    }

    Tool uploadFile() {
        return tool("upload_file", "Upload a file into a session",
                """
                Writes a file into a session's working directory, where code can open it by name \
                (e.g. pandas.read_csv("data.csv")). Replaces a file of the same name.""",
                """
                {"type": "object", "properties": {
                  %s,
                  "name": {"type": "string", "maxLength": 255,
                    "description": "A plain file name, no directories (e.g. data.csv)."},
                  "content_base64": {"type": "string", "description": "The file's bytes, base64-encoded."}
                }, "required": ["session_id", "name", "content_base64"], "additionalProperties": false}""".formatted(SESSION_ID));
    }

    Tool listFiles() {
        return sessionTool("list_files", "List a session's files",
                "Lists the files in a session's working directory with their sizes and types, including files the code wrote.");
    }

    Tool readFile() {
        return tool("read_file", "Read a file from a session",
                """
                Reads a file from a session's working directory: text files come back as text, images as \
                images, other binary files as a base64 resource.""",
                """
                {"type": "object", "properties": {
                  %s,
                  "name": {"type": "string", "maxLength": 255, "description": "The file name, as list_files shows it."}
                }, "required": ["session_id", "name"], "additionalProperties": false}""".formatted(SESSION_ID));
    }

    private Tool sessionTool(String name, String title, String description) {
        return tool(name, title, description, """
                {"type": "object", "properties": {
                  %s
                }, "required": ["session_id"], "additionalProperties": false}""".formatted(SESSION_ID));
    }

    /** The languages as a JSON array, from the one list ({@link Language}). */
    private static String languages() {
        return Json.write(Language.wireNames());
    }

    private Tool tool(String name, String title, String description, String schema) {
        return Tool.builder().name(name).title(title).description(description).inputSchema(json, schema).build();
    }
}
