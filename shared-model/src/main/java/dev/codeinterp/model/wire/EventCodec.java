package dev.codeinterp.model.wire;

import dev.codeinterp.model.AssistantStatus;
import dev.codeinterp.model.Event;
import dev.codeinterp.model.EventType;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/** Events and session events as JSON objects: the part every frame, history page and stored row shares. */
final class EventCodec {
    private EventCodec() {
    }

    /** Writes an event's own fields (with its {@code type}) into {@code out}. */
    static Map<String, Object> eventFields(Event event, Map<String, Object> out) {
        out.put("type", event.type().wire());
        switch (event.type()) {
            case QUEUED: {
                Event.Queued q = (Event.Queued) event;
                out.put("code", q.code());
                if (q.language() != Language.PYTHON) { // absent means Python, as in an execute request
                    out.put("language", q.language().wire());
                }
                break;
            }
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
                putDisplayId(out, d.displayId());
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
            case RESUMED:
                out.put("duration_ms", ((Event.Resumed) event).durationMs());
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
            case PROMPT:
                out.put("text", ((Event.Prompt) event).text());
                break;
            case ASSISTANT_TEXT:
                out.put("text", ((Event.AssistantText) event).text());
                break;
            case TOOL_CALL: {
                Event.ToolCall c = (Event.ToolCall) event;
                out.put("call_id", c.callId());
                out.put("name", c.name());
                out.put("arguments", c.arguments());
                out.put("cell_id", c.cellId());
                break;
            }
            case TOOL_RESULT: {
                Event.ToolResult r = (Event.ToolResult) event;
                out.put("call_id", r.callId());
                out.put("text", r.text());
                break;
            }
            case ASSISTANT_DONE: {
                Event.AssistantDone d = (Event.AssistantDone) event;
                out.put("status", d.status().wire());
                out.put("message", d.message());
                break;
            }
            case UPDATE_DISPLAY_DATA: {
                Event.UpdateDisplayData u = (Event.UpdateDisplayData) event;
                out.put("data", u.data());
                out.put("metadata", u.metadata());
                putDisplayId(out, u.displayId());
                break;
            }
            case CLEAR_OUTPUT:
                out.put("wait", ((Event.ClearOutput) event).waitForNext());
                break;
            case INPUT_REQUEST: {
                Event.InputRequest r = (Event.InputRequest) event;
                out.put("prompt", r.prompt());
                out.put("password", r.password());
                break;
            }
            case INSTALL: {
                Event.Install i = (Event.Install) event;
                out.put("language", i.language().wire());
                out.put("packages", new ArrayList<Object>(i.packages()));
                out.put("duration_ms", i.durationMs());
                out.put("cached", i.cached());
                break;
            }
            default:
                throw new IllegalStateException("unhandled event type " + event.type());
        }
        return out;
    }

    /** Reads an event from an object holding its {@code type} and fields. */
    static Event decodeEvent(JsonObject o) {
        String typeName = o.string("type");
        EventType type = EventType.fromWire(typeName);
        if (type == null) {
            throw new JsonException("unknown event type '" + typeName + "'");
        }
        switch (type) {
            case QUEUED:
                return new Event.Queued(o.string("code"), language(o.optString("language", null)));
            case STARTED:
                return new Event.Started(o.optInteger("execution_count", 0));
            case STREAM:
                return new Event.Stream(StreamName.fromWire(o.optString("name", "stdout")), o.string("text"));
            case DISPLAY_DATA:
                return new Event.DisplayData(o.object("data").asMap(), o.optObject("metadata").asMap(), displayId(o));
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
            case RESUMED:
                return new Event.Resumed(o.optInteger("duration_ms", 0));
            case FINISHED:
                return new Event.Finished(status(o.string("status")), o.optIntegerOrNull("execution_count"),
                        o.optIntegerOrNull("duration_ms"), o.optIntegerOrNull("cpu_ms"), o.optIntegerOrNull("peak_memory_kb"));
            case PROMPT:
                return new Event.Prompt(o.string("text"));
            case ASSISTANT_TEXT:
                return new Event.AssistantText(o.string("text"));
            case TOOL_CALL:
                return new Event.ToolCall(o.string("call_id"), o.string("name"), o.optString("arguments", "{}"),
                        o.optString("cell_id", null));
            case TOOL_RESULT:
                return new Event.ToolResult(o.string("call_id"), o.string("text"));
            case ASSISTANT_DONE: {
                AssistantStatus status = AssistantStatus.fromWire(o.string("status"));
                if (status == null) {
                    throw new JsonException("unknown assistant status '" + o.string("status") + "'");
                }
                return new Event.AssistantDone(status, o.optString("message", null));
            }
            case UPDATE_DISPLAY_DATA: {
                String displayId = displayId(o);
                if (displayId == null) {
                    throw new JsonException("update_display_data needs transient.display_id");
                }
                return new Event.UpdateDisplayData(o.object("data").asMap(), o.optObject("metadata").asMap(), displayId);
            }
            case CLEAR_OUTPUT:
                return new Event.ClearOutput(o.optBoolean("wait", false));
            case INPUT_REQUEST:
                return new Event.InputRequest(o.optString("prompt", ""), o.optBoolean("password", false));
            case INSTALL:
                return new Event.Install(language(o.optString("language", "python")), o.stringList("packages"),
                        o.optInteger("duration_ms", 0), o.optBoolean("cached", false));
            default:
                throw new JsonException("unhandled event type '" + typeName + "'");
        }
    }

    /** Jupyter carries a display's id as {@code "transient": {"display_id": ...}}. */
    private static void putDisplayId(Map<String, Object> out, String displayId) {
        if (displayId != null) {
            Map<String, Object> transientFields = new LinkedHashMap<>();
            transientFields.put("display_id", displayId);
            out.put("transient", transientFields);
        }
    }

    private static String displayId(JsonObject o) {
        return o.optObject("transient").optString("display_id", null);
    }

    static Map<String, Object> sessionEventFields(SessionEvent e) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("seq", e.seq());
        out.put("execution_id", e.executionId());
        out.put("time", e.timestampMs());
        return eventFields(e.event(), out);
    }

    static SessionEvent decodeSessionEvent(JsonObject o) {
        return new SessionEvent(o.integer("seq"), o.string("execution_id"), o.optInteger("time", 0), decodeEvent(o));
    }

    /** A cell's language on the wire: absent (rows from before languages) is Python; an unknown name is refused. */
    private static Language language(String wire) {
        try {
            return Language.fromWire(wire);
        } catch (IllegalArgumentException e) {
            throw new JsonException(e.getMessage());
        }
    }

    /** The status of a wire name; an unknown one is a {@link JsonException}. */
    static Status status(String wire) {
        Status status = Status.fromWire(wire);
        if (status == null) {
            throw new JsonException("unknown status '" + wire + "'");
        }
        return status;
    }
}
