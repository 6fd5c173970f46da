package dev.codeinterp.model;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one place where the vocabulary meets JSON: events, WebSocket frames, runner lines and REST
 * bodies. Keys are snake_case, as in Jupyter. Decoders validate and raise {@link JsonException}
 * with a message fit to show the sender.
 */
public final class WireCodec {
    private WireCodec() {
    }

    // ---- events ---------------------------------------------------------------------------

    /** Writes an event's own fields (with its {@code type}) into {@code out}. */
    public static Map<String, Object> eventFields(Event event, Map<String, Object> out) {
        out.put("type", event.type().wire());
        switch (event.type()) {
            case QUEUED:
                out.put("code", ((Event.Queued) event).code());
                break;
            case STARTED:
                out.put("execution_count", ((Event.Started) event).executionCount());
                break;
            case STREAM: {
                Event.Stream s = (Event.Stream) event;
                out.put("name", s.name().wire());
                out.put("text", s.text());
                break;
            }
            case DISPLAY_DATA: {
                Event.DisplayData d = (Event.DisplayData) event;
                out.put("data", d.data());
                out.put("metadata", d.metadata());
                break;
            }
            case EXECUTE_RESULT: {
                Event.ExecuteResult r = (Event.ExecuteResult) event;
                out.put("execution_count", r.executionCount());
                out.put("data", r.data());
                out.put("metadata", r.metadata());
                break;
            }
            case ERROR: {
                Event.Error e = (Event.Error) event;
                out.put("ename", e.ename());
                out.put("evalue", e.evalue());
                out.put("traceback", new ArrayList<Object>(e.traceback()));
                break;
            }
            case TRUNCATED:
                out.put("limit_bytes", ((Event.Truncated) event).limitBytes());
                break;
            case ARTIFACT: {
                Event.Artifact a = (Event.Artifact) event;
                out.put("name", a.name());
                out.put("size", a.size());
                out.put("mime", a.mime());
                out.put("url", a.url());
                break;
            }
            case RESTARTED:
                out.put("reason", ((Event.Restarted) event).reason());
                break;
            case FINISHED: {
                Event.Finished f = (Event.Finished) event;
                out.put("status", f.status().wire());
                out.put("execution_count", f.executionCount());
                out.put("duration_ms", f.durationMs());
                out.put("cpu_ms", f.cpuMs());
                out.put("peak_memory_kb", f.peakMemoryKb());
                break;
            }
            default:
                throw new IllegalStateException("unhandled event type " + event.type());
        }
        return out;
    }

    public static String encodeEvent(Event event) {
        return Json.write(eventFields(event, new LinkedHashMap<>()));
    }

    /** Reads an event from an object holding its {@code type} and fields. */
    public static Event decodeEvent(JsonObject o) {
        String typeName = o.string("type");
        EventType type = EventType.fromWire(typeName);
        if (type == null) {
            throw new JsonException("unknown event type '" + typeName + "'");
        }
        switch (type) {
            case QUEUED:
                return new Event.Queued(o.string("code"));
            case STARTED:
                return new Event.Started(o.optInteger("execution_count", 0));
            case STREAM:
                return new Event.Stream(StreamName.fromWire(o.optString("name", "stdout")), o.string("text"));
            case DISPLAY_DATA:
                return new Event.DisplayData(o.object("data").asMap(), o.optObject("metadata").asMap());
            case EXECUTE_RESULT:
                return new Event.ExecuteResult(o.optInteger("execution_count", 0), o.object("data").asMap(),
                        o.optObject("metadata").asMap());
            case ERROR:
                return new Event.Error(o.optString("ename", "Error"), o.optString("evalue", ""), o.stringList("traceback"));
            case TRUNCATED:
                return new Event.Truncated(o.optInteger("limit_bytes", 0));
            case ARTIFACT:
                return new Event.Artifact(o.string("name"), o.optInteger("size", 0), o.optString("mime", "application/octet-stream"),
                        o.optString("url", ""));
            case RESTARTED:
                return new Event.Restarted(o.optString("reason", ""));
            case FINISHED: {
                Status status = Status.fromWire(o.string("status"));
                if (status == null) {
                    throw new JsonException("unknown status '" + o.string("status") + "'");
                }
                return new Event.Finished(status, o.optIntegerOrNull("execution_count"), o.optIntegerOrNull("duration_ms"),
                        o.optIntegerOrNull("cpu_ms"), o.optIntegerOrNull("peak_memory_kb"));
            }
            default:
                throw new JsonException("unhandled event type '" + typeName + "'");
        }
    }

    public static Event decodeEvent(String json) {
        return decodeEvent(JsonObject.parse(json));
    }

    public static Map<String, Object> sessionEventFields(SessionEvent e) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("seq", e.seq());
        out.put("execution_id", e.executionId());
        out.put("time", e.timestampMs());
        return eventFields(e.event(), out);
    }

    public static SessionEvent decodeSessionEvent(JsonObject o) {
        return new SessionEvent(o.integer("seq"), o.string("execution_id"), o.optInteger("time", 0), decodeEvent(o));
    }

    // ---- runner lines ---------------------------------------------------------------------

    /** Reads one line of the runner's stdout (see docs/runner-protocol.md). */
    public static RunnerMessage decodeRunnerLine(String line) {
        JsonObject o = JsonObject.parse(line);
        String type = o.string("type");
        if ("ready".equals(type)) {
            return new RunnerMessage.Ready(o.optString("python", "?"), o.optInteger("pid", 0));
        }
        if ("protocol_error".equals(type)) {
            return new RunnerMessage.ProtocolError(o.optString("message", ""));
        }
        return new RunnerMessage.CellEvent(o.string("id"), decodeEvent(o));
    }

    public static String encodeRunnerExecute(String executionId, String code, long maxOutputBytes) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "execute");
        m.put("id", executionId);
        m.put("code", code);
        m.put("max_output_bytes", maxOutputBytes);
        return Json.write(m);
    }

    /** Places a file in the runner's working directory before the next cell runs. */
    public static String encodeRunnerWriteFile(String name, String contentBase64) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "write_file");
        m.put("name", name);
        m.put("content_base64", contentBase64);
        return Json.write(m);
    }

    public static String encodeRunnerCommand(String type) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        return Json.write(m);
    }

    // ---- WebSocket frames -----------------------------------------------------------------

    public static String encode(ServerMessage message) {
        Map<String, Object> m;
        if (message instanceof ServerMessage.EventFrame) {
            m = sessionEventFields(((ServerMessage.EventFrame) message).event());
            m.put("frame", "event");
        } else if (message instanceof ServerMessage.Welcome) {
            ServerMessage.Welcome w = (ServerMessage.Welcome) message;
            m = new LinkedHashMap<>();
            m.put("frame", "welcome");
            m.put("session_id", w.sessionId());
            m.put("runtime", w.runtime());
            m.put("last_seq", w.lastSeq());
        } else {
            ServerMessage.ProtocolError p = (ServerMessage.ProtocolError) message;
            m = new LinkedHashMap<>();
            m.put("frame", "protocol_error");
            m.put("message", p.message());
            if (p.limit() != null) {
                m.put("limit", p.limit().wire());
            }
        }
        return Json.write(m);
    }

    public static ServerMessage decodeServerMessage(String json) {
        JsonObject o = JsonObject.parse(json);
        String frame = o.string("frame");
        switch (frame) {
            case "event":
                return new ServerMessage.EventFrame(decodeSessionEvent(o));
            case "welcome":
                return new ServerMessage.Welcome(o.string("session_id"), o.optString("runtime", ""), o.optInteger("last_seq", 0));
            case "protocol_error":
                return new ServerMessage.ProtocolError(o.optString("message", ""), Limit.fromWire(o.optString("limit", null)));
            default:
                throw new JsonException("unknown frame '" + frame + "'");
        }
    }

    public static String encode(ClientMessage message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", message.type().wire());
        switch (message.type()) {
            case HELLO: {
                ClientMessage.Hello h = (ClientMessage.Hello) message;
                m.put("token", h.token());
                m.put("last_seq", h.lastSeq());
                break;
            }
            case EXECUTE: {
                ClientMessage.Execute e = (ClientMessage.Execute) message;
                m.put("code", e.code());
                if (e.timeoutSeconds() != null) {
                    m.put("timeout", e.timeoutSeconds());
                }
                break;
            }
            default:
                break;
        }
        return Json.write(m);
    }

    public static ClientMessage decodeClientMessage(String json) {
        JsonObject o = JsonObject.parse(json);
        String typeName = o.string("type");
        ClientMessageType type = ClientMessageType.fromWire(typeName);
        if (type == null) {
            throw new JsonException("unknown message type '" + typeName + "'");
        }
        switch (type) {
            case HELLO:
                return new ClientMessage.Hello(o.string("token"), o.optInteger("last_seq", 0));
            case EXECUTE:
                return new ClientMessage.Execute(o.string("code"), o.optNumber("timeout"));
            case INTERRUPT:
                return new ClientMessage.Interrupt();
            case RESTART:
                return new ClientMessage.Restart();
            default:
                throw new JsonException("unhandled message type '" + typeName + "'");
        }
    }

    // ---- REST bodies ----------------------------------------------------------------------

    public static ExecuteRequest decodeExecuteRequest(String json) {
        JsonObject o = JsonObject.parse(json);
        List<ExecuteRequest.InputFile> files = new ArrayList<>();
        for (JsonObject f : o.objectList("files")) {
            files.add(new ExecuteRequest.InputFile(f.string("name"), f.string("content_base64")));
        }
        return new ExecuteRequest(o.string("code"), o.optString("language", "python"), o.optNumber("timeout"), files);
    }

    public static String encode(ExecuteRequest request) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("code", request.code());
        m.put("language", request.language());
        if (request.timeoutSeconds() != null) {
            m.put("timeout", request.timeoutSeconds());
        }
        if (request.files() != null && !request.files().isEmpty()) {
            List<Object> files = new ArrayList<>();
            for (ExecuteRequest.InputFile f : request.files()) {
                Map<String, Object> fm = new LinkedHashMap<>();
                fm.put("name", f.name());
                fm.put("content_base64", f.contentBase64());
                files.add(fm);
            }
            m.put("files", files);
        }
        return Json.write(m);
    }

    public static Map<String, Object> fields(ExecuteResponse r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("success", r.success());
        m.put("status", r.status().wire());
        m.put("stdout", r.stdout());
        m.put("stderr", r.stderr());
        m.put("results", new ArrayList<Object>(r.results()));
        List<Object> images = new ArrayList<>();
        for (ExecuteResponse.Image image : r.images()) {
            Map<String, Object> im = new LinkedHashMap<>();
            im.put("type", image.type());
            im.put("base64", image.base64());
            images.add(im);
        }
        m.put("images", images);
        if (r.error() == null) {
            m.put("error", null);
        } else {
            Map<String, Object> em = new LinkedHashMap<>();
            em.put("name", r.error().name());
            em.put("value", r.error().value());
            em.put("traceback", r.error().traceback());
            m.put("error", em);
        }
        m.put("executionTime", r.executionTime());
        List<Object> files = new ArrayList<>();
        for (ExecuteResponse.ReturnedFile f : r.files()) {
            Map<String, Object> fm = new LinkedHashMap<>();
            fm.put("name", f.name());
            fm.put("size", f.size());
            fm.put("content_base64", f.contentBase64());
            if (f.omitted() != null) {
                fm.put("omitted", f.omitted());
            }
            files.add(fm);
        }
        m.put("files", files);
        return m;
    }

    public static String encode(ExecuteResponse r) {
        return Json.write(fields(r));
    }

    // ---- workspace files -------------------------------------------------------------------

    public static Map<String, Object> fileFields(FileEntry f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", f.name());
        m.put("size", f.size());
        m.put("modified", f.modifiedMs());
        m.put("mime", f.mime());
        m.put("url", f.url());
        return m;
    }

    public static FileEntry decodeFileEntry(JsonObject o) {
        return new FileEntry(o.string("name"), o.optInteger("size", 0), o.optInteger("modified", 0),
                o.optString("mime", "application/octet-stream"), o.optString("url", ""));
    }

    /** The {@code files} of a listing or multipart upload answer. */
    public static List<FileEntry> decodeFileList(String json) {
        List<FileEntry> out = new ArrayList<>();
        for (JsonObject o : JsonObject.parse(json).objectList("files")) {
            out.add(decodeFileEntry(o));
        }
        return out;
    }

    /** {@code {"error": message}}: the body of every 4xx/5xx answer. */
    public static String encodeError(String message) {
        return encode(ApiError.of(message));
    }

    /** {@code {"error", "limit"?, "retry_after"?}}: an error body, with the limit that refused the request if one did. */
    public static String encode(ApiError error) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("error", error.error());
        if (error.limit() != null) {
            m.put("limit", error.limit().wire());
        }
        if (error.retryAfterSeconds() != null) {
            m.put("retry_after", error.retryAfterSeconds());
        }
        return Json.write(m);
    }

    public static ApiError decodeApiError(String json) {
        JsonObject o = JsonObject.parse(json);
        Long retry = o.optIntegerOrNull("retry_after");
        return new ApiError(o.optString("error", ""), Limit.fromWire(o.optString("limit", null)),
                retry == null ? null : (int) Math.min(Integer.MAX_VALUE, Math.max(0, retry)));
    }
}
