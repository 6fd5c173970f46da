package dev.codeinterp.server.mcp;

import dev.codeinterp.model.rest.FileEntry;
import dev.codeinterp.model.rest.FileList;
import dev.codeinterp.model.rules.MimeTypes;
import dev.codeinterp.model.rules.WorkspaceNames;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.config.Settings;
import dev.codeinterp.server.files.Sizes;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.files.WorkspaceFile;
import dev.codeinterp.server.session.Session;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A session's workspace over MCP: upload, list, read. Names pass the shared WorkspaceNames rule;
 * contents travel inline as base64, so both ways are bounded like the one-shot execute's inline
 * files (and never past the upload or returned-files limits).
 */
final class FileTools {
    private final McpSessions mcpSessions;
    private final Settings settings;
    private final McpJsonMapper json;

    FileTools(McpSessions mcpSessions, Settings settings, McpJsonMapper json) {
        this.mcpSessions = mcpSessions;
        this.settings = settings;
        this.json = json;
    }

    private long maxUpload() {
        return Math.min(settings.maxUploadBytes(), settings.maxInputFilesBytes());
    }

    private long maxRead() {
        return settings.maxReturnedFilesBytes();
    }

    /** The largest request body the endpoint needs: an upload's base64 or the largest code, with room for framing. */
    static long maxRequestBytes(Settings settings) {
        long upload = Math.min(settings.maxUploadBytes(), settings.maxInputFilesBytes());
        return Math.max(upload / 3 * 4 + 4, settings.maxCodeBytes() * 6) + (64 << 10);
    }

    CallToolResult upload(McpSyncServerExchange exchange, CallToolRequest request) {
        Args args = Args.of(request.arguments());
        Session session = mcpSessions.open(exchange.sessionId(), args.requiredString("session_id"));
        String name = checked(args.requiredString("name"));
        String base64 = args.requiredString("content_base64");
        if (base64.length() / 4L * 3 > maxUpload() + 2) {
            throw new ToolError("the file is larger than the " + Sizes.human(maxUpload()) + " limit of an upload over MCP");
        }
        byte[] content;
        try {
            content = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new ToolError("content_base64 is not valid base64: " + e.getMessage());
        }
        WorkspaceFile stored = workspaceOf(session).write(name, new ByteArrayInputStream(content), maxUpload());
        return CallToolResult.builder()
                .addContent(new TextContent("uploaded " + stored.name() + " (" + stored.size() + " bytes)"))
                .structuredContent(json, WireCodec.encode(entry(stored)))
                .build();
    }

    CallToolResult list(McpSyncServerExchange exchange, CallToolRequest request) {
        Session session = mcpSessions.open(exchange.sessionId(), Args.of(request.arguments()).requiredString("session_id"));
        List<FileEntry> files = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        long used = 0;
        for (WorkspaceFile f : workspaceOf(session).list()) {
            files.add(entry(f));
            used += f.size();
            text.append(f.name()).append("\t").append(f.size()).append(" bytes\t").append(f.mime()).append('\n');
        }
        String summary = files.isEmpty() ? "no files" : text.toString().stripTrailing();
        return CallToolResult.builder()
                .addContent(new TextContent(summary))
                .structuredContent(json, WireCodec.encode(new FileList(files, used, settings.workspaceBytes(), maxUpload())))
                .build();
    }

    CallToolResult read(McpSyncServerExchange exchange, CallToolRequest request) {
        Args args = Args.of(request.arguments());
        String sessionId = args.requiredString("session_id");
        Session session = mcpSessions.open(exchange.sessionId(), sessionId);
        String name = checked(args.requiredString("name"));
        byte[] content;
        String mime;
        try (Workspace.OpenFile open = workspaceOf(session).open(name);
             InputStream in = Channels.newInputStream(open.channel())) {
            if (open.file().size() > maxRead()) {
                throw new ToolError(name + " is " + Sizes.human(open.file().size()) + "; files over "
                        + Sizes.human(maxRead()) + " cannot be read over MCP. Process it with run_code instead.");
            }
            content = in.readNBytes((int) maxRead());
            mime = open.file().mime();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String text = utf8(content);
        if (text != null && !mime.startsWith("image/")) {
            return CallToolResult.builder().addContent(new TextContent(text)).build();
        }
        String base64 = Base64.getEncoder().encodeToString(content);
        if (MimeTypes.isInlineImage(mime)) {
            return CallToolResult.builder().addContent(new ImageContent(null, base64, mime)).build();
        }
        String uri = "codeinterp://sessions/" + sessionId + "/files/" + java.net.URLEncoder.encode(name, StandardCharsets.UTF_8);
        return CallToolResult.builder()
                .addContent(new TextContent(name + " is binary (" + mime + ", " + content.length + " bytes); its bytes are in the resource, base64"))
                .addContent(new EmbeddedResource(null, new BlobResourceContents(uri, mime, base64)))
                .build();
    }

    /** The content as text if it is valid UTF-8 without NULs; null for binary. */
    private static String utf8(byte[] content) {
        for (byte b : content) {
            if (b == 0) {
                return null;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** No url: the REST url needs the session token, which an MCP client never holds. */
    private static FileEntry entry(WorkspaceFile f) {
        return new FileEntry(f.name(), f.size(), f.modifiedMs(), f.mime(), null);
    }

    private static Workspace workspaceOf(Session session) {
        Workspace workspace = session.workspace();
        if (workspace == null) {
            throw new ToolError("the session has no workspace yet; try again in a moment");
        }
        return workspace;
    }

    private static String checked(String name) {
        try {
            return WorkspaceNames.check(name);
        } catch (IllegalArgumentException e) {
            throw new ToolError("file name refused: " + e.getMessage());
        }
    }
}
