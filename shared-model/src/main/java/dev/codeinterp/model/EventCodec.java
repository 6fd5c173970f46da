package dev.codeinterp.model;

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
            case FINISHED:
                return new Event.Finished(status(o.string("status")), o.optIntegerOrNull("execution_count"),
                        o.optIntegerOrNull("duration_ms"), o.optIntegerOrNull("cpu_ms"), o.optIntegerOrNull("peak_memory_kb"));
            case INSTALL:
                return new Event.Install(language(o.optString("language", "python")), o.stringList("packages"),
                        o.optInteger("duration_ms", 0), o.optBoolean("cached", false));
            default:
                throw new JsonException("unhandled event type '" + typeName + "'");
        }
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
