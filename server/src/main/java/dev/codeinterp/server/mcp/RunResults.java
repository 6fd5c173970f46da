package dev.codeinterp.server.mcp;

import dev.codeinterp.model.Status;
import dev.codeinterp.model.rest.ExecuteResponse;
import dev.codeinterp.model.wire.WireCodec;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * An execution's result as a tool result: text blocks a model reads (output, the value, the error
 * with its traceback), one image block per PNG, and the REST one-shot body, encoded by WireCodec,
 * as {@code structuredContent} for programs.
 */
final class RunResults {
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*[A-Za-z]");

    private final McpJsonMapper json;

    RunResults(McpJsonMapper json) {
        this.json = json;
    }

    CallToolResult of(ExecuteResponse response) {
        CallToolResult.Builder result = CallToolResult.builder();
        if (!response.stdout().isEmpty()) {
            result.addContent(new TextContent(response.stdout()));
        }
        if (!response.stderr().isEmpty()) {
            result.addContent(new TextContent("stderr:\n" + response.stderr()));
        }
        for (Map<String, Object> bundle : response.results()) {
            if (bundle.get("text/plain") instanceof String text && !bundle.containsKey("image/png")) {
                result.addContent(new TextContent("result: " + text));
            }
        }
        for (ExecuteResponse.Image image : response.images()) {
            result.addContent(new ImageContent(null, image.base64(), "image/" + image.type()));
        }
        if (response.error() != null) {
            ExecuteResponse.ErrorInfo e = response.error();
            String traceback = e.traceback() == null || e.traceback().isBlank() ? "" : "\n" + ANSI.matcher(e.traceback()).replaceAll("");
            result.addContent(new TextContent("error: " + e.name() + ": " + e.value() + traceback));
        }
        if (response.status() != Status.OK && response.status() != Status.ERROR) {
            result.addContent(new TextContent("status: " + response.status().wire() + statusHint(response.status())));
        }
        for (ExecuteResponse.ReturnedFile f : response.files()) {
            result.addContent(new TextContent("wrote file " + f.name() + " (" + f.size() + " bytes)"
                    + (f.omitted() != null ? ": " + f.omitted() : "; its content is in structuredContent.files")));
        }
        if (response.stdout().isEmpty() && response.stderr().isEmpty() && response.results().isEmpty()
                && response.error() == null && response.files().isEmpty() && response.status() == Status.OK) {
            result.addContent(new TextContent("(no output)"));
        }
        return result.structuredContent(json, WireCodec.encode(response)).isError(!response.success()).build();
    }

    private static String statusHint(Status status) {
        return switch (status) {
            case TIMEOUT -> " (the code ran past its time limit and was stopped)";
            case OOM -> " (the code ran out of memory; in a session the interpreter was restarted and its variables are gone)";
            case INTERRUPTED -> " (the code was interrupted)";
            case OK, ERROR -> "";
        };
    }
}
