package dev.codeinterp.model.wire;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.local.RuntimeFrameMessage;
import dev.codeinterp.model.rest.FileEntry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON text of {@link RuntimeFrameMessage}s, both ways. The app's frame host turns a posted
 * object into this text (file bytes taken off) and back. Everything the frame sends is treated as
 * hostile: a message that does not decode is a {@link JsonException}, and the app drops it.
 */
final class RuntimeFrameCodec {
    private static final String OCTET_STREAM = "application/octet-stream";

    private RuntimeFrameCodec() {
    }

    static String encode(RuntimeFrameMessage message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", message.type().wire());
        switch (message.type()) {
            case EXECUTE: {
                RuntimeFrameMessage.Execute e = (RuntimeFrameMessage.Execute) message;
                m.put("id", e.id());
                m.put("code", e.code());
                m.put("language", e.language().wire());
                if (e.timeoutMs() != null) {
                    m.put("timeoutMs", e.timeoutMs());
                }
                break;
            }
            case WRITE_FILE: {
                RuntimeFrameMessage.WriteFile w = (RuntimeFrameMessage.WriteFile) message;
                m.put("requestId", w.requestId());
                m.put("name", w.name());
                break;
            }
            case LIST_FILES:
                m.put("requestId", ((RuntimeFrameMessage.ListFiles) message).requestId());
                break;
            case READ_FILE: {
                RuntimeFrameMessage.ReadFile r = (RuntimeFrameMessage.ReadFile) message;
                m.put("requestId", r.requestId());
                m.put("name", r.name());
                break;
            }
            case DELETE_FILE: {
                RuntimeFrameMessage.DeleteFile d = (RuntimeFrameMessage.DeleteFile) message;
                m.put("requestId", d.requestId());
                m.put("name", d.name());
                break;
            }
            case LOADING:
                m.put("message", ((RuntimeFrameMessage.Loading) message).message());
                break;
            case INPUT_REPLY:
                m.put("value", ((RuntimeFrameMessage.InputReply) message).value());
                break;
            case READY: {
                RuntimeFrameMessage.Ready r = (RuntimeFrameMessage.Ready) message;
                m.put("python", r.python());
                m.put("pyodide", r.pyodide());
                m.put("isolated", r.isolated());
                if (r.maxTimeoutMs() > 0) {
                    m.put("timeoutMs", r.timeoutMs());
                    m.put("maxTimeoutMs", r.maxTimeoutMs());
                }
                break;
            }
            case RUNNER:
                m.put("line", ((RuntimeFrameMessage.Runner) message).line());
                break;
            case RESET:
                m.put("reason", ((RuntimeFrameMessage.Reset) message).reason());
                break;
            case FATAL:
                m.put("message", ((RuntimeFrameMessage.Fatal) message).message());
                break;
            case FILE_WRITTEN: {
                RuntimeFrameMessage.FileWritten w = (RuntimeFrameMessage.FileWritten) message;
                m.put("requestId", w.requestId());
                m.put("name", w.name());
                m.put("size", w.size());
                break;
            }
            case FILES: {
                RuntimeFrameMessage.Files f = (RuntimeFrameMessage.Files) message;
                m.put("requestId", f.requestId());
                m.put("files", WorkspaceCodec.fieldsWithoutUrl(f.files()));
                break;
            }
            case FILE_CONTENT: {
                RuntimeFrameMessage.FileContent c = (RuntimeFrameMessage.FileContent) message;
                m.put("requestId", c.requestId());
                m.put("name", c.name());
                m.put("mime", c.mime());
                break;
            }
            case FILE_DELETED: {
                RuntimeFrameMessage.FileDeleted d = (RuntimeFrameMessage.FileDeleted) message;
                m.put("requestId", d.requestId());
                m.put("name", d.name());
                break;
            }
            case FILE_ERROR: {
                RuntimeFrameMessage.FileError e = (RuntimeFrameMessage.FileError) message;
                m.put("requestId", e.requestId());
                m.put("message", e.message());
                break;
            }
            default: // interrupt, restart: the type says it all
                break;
        }
        return Json.write(m);
    }

    /** A message the frame sent; one meant for the frame, or anything malformed, is a {@link JsonException}. */
    static RuntimeFrameMessage.FromFrame decodeFromFrame(String json) {
        if (decode(json) instanceof RuntimeFrameMessage.FromFrame m) {
            return m;
        }
        throw new JsonException("not a message of the frame");
    }

    static RuntimeFrameMessage decode(String json) {
        JsonObject o = JsonObject.parse(json);
        String typeName = o.string("type");
        RuntimeFrameMessage.Type type = RuntimeFrameMessage.Type.fromWire(typeName);
        if (type == null) {
            throw new JsonException("unknown frame message type '" + typeName + "'");
        }
        switch (type) {
            case EXECUTE:
                return new RuntimeFrameMessage.Execute(o.string("id"), o.string("code"), language(o.optString("language", null)),
                        timeoutMs(o.optNumber("timeoutMs")));
            case INTERRUPT:
                return new RuntimeFrameMessage.Interrupt();
            case RESTART:
                return new RuntimeFrameMessage.Restart();
            case WRITE_FILE:
                return new RuntimeFrameMessage.WriteFile(o.string("requestId"), o.string("name"));
            case LIST_FILES:
                return new RuntimeFrameMessage.ListFiles(o.string("requestId"));
            case READ_FILE:
                return new RuntimeFrameMessage.ReadFile(o.string("requestId"), o.string("name"));
            case DELETE_FILE:
                return new RuntimeFrameMessage.DeleteFile(o.string("requestId"), o.string("name"));
            case LOADING:
                return new RuntimeFrameMessage.Loading(o.string("message"));
            case READY:
                return ready(o);
            case RUNNER:
                return new RuntimeFrameMessage.Runner(o.string("line"));
            case RESET:
                return new RuntimeFrameMessage.Reset(o.string("reason"));
            case FATAL:
                return new RuntimeFrameMessage.Fatal(o.string("message"));
            case FILE_WRITTEN:
                return new RuntimeFrameMessage.FileWritten(o.string("requestId"), o.string("name"), count(o, "size"));
            case FILES:
                return new RuntimeFrameMessage.Files(o.string("requestId"), files(o));
            case FILE_CONTENT:
                return new RuntimeFrameMessage.FileContent(o.string("requestId"), o.string("name"),
                        o.optString("mime", OCTET_STREAM));
            case FILE_DELETED:
                return new RuntimeFrameMessage.FileDeleted(o.string("requestId"), o.string("name"));
            case FILE_ERROR:
                return new RuntimeFrameMessage.FileError(o.string("requestId"), o.optString("message", ""));
            case INPUT_REPLY:
                return new RuntimeFrameMessage.InputReply(o.string("value"));
            default:
                throw new JsonException("unhandled frame message type '" + typeName + "'");
        }
    }

    private static Language language(String wire) {
        try {
            return Language.fromWire(wire);
        } catch (IllegalArgumentException e) {
            throw new JsonException(e.getMessage());
        }
    }

    /** The frame's cell timeouts come as a pair, the default within the most, or not at all. */
    private static RuntimeFrameMessage.Ready ready(JsonObject o) {
        Long timeout = timeoutMs(o.optNumber("timeoutMs"));
        Long most = timeoutMs(o.optNumber("maxTimeoutMs"));
        if ((timeout == null) != (most == null) || timeout != null && timeout > most) {
            throw new JsonException("a frame's timeoutMs and maxTimeoutMs come together, the default within the most");
        }
        return new RuntimeFrameMessage.Ready(o.string("python"), o.string("pyodide"), o.optBoolean("isolated", false),
                timeout == null ? 0 : timeout, most == null ? 0 : most);
    }

    /** A cell's timeout: whole positive milliseconds, or absent. */
    private static Long timeoutMs(Double ms) {
        if (ms == null) {
            return null;
        }
        if (ms <= 0 || ms != Math.floor(ms) || ms > Long.MAX_VALUE) {
            throw new JsonException("timeoutMs must be a positive whole number of milliseconds, not " + ms);
        }
        return ms.longValue();
    }

    private static List<FileEntry> files(JsonObject o) {
        List<FileEntry> out = new ArrayList<>();
        for (JsonObject f : o.objectList("files")) {
            out.add(new FileEntry(f.string("name"), count(f, "size"), count(f, "modified"),
                    f.optString("mime", OCTET_STREAM), ""));
        }
        return out;
    }

    /** Sizes and times: any JSON number, whole milliseconds or bytes after truncation; absent is 0. */
    private static long count(JsonObject o, String key) {
        Double n = o.optNumber(key);
        return n == null ? 0 : n.longValue();
    }
}
