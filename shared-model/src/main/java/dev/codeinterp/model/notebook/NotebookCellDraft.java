package dev.codeinterp.model.notebook;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One execution on its way to a notebook code cell: its outputs in Jupyter's output model, as they came. */
final class NotebookCellDraft {
    private final String code;
    private final Language language;
    private final List<Map<String, Object>> outputs = new ArrayList<>();
    private final List<Object> files = new ArrayList<>();
    /** Outputs shown with a display id, which a later {@code update_display_data} replaces in place. */
    private final Map<String, Map<String, Object>> displays = new LinkedHashMap<>();
    private Long executionCount;
    private Status status;
    private Long durationMs;

    NotebookCellDraft(Event.Queued queued) {
        this.code = queued.code();
        this.language = queued.language();
    }

    Language language() {
        return language;
    }

    void add(Event event) {
        switch (event.type()) {
            case STARTED:
                executionCount = ((Event.Started) event).executionCount();
                break;
            case STREAM: {
                Event.Stream s = (Event.Stream) event;
                stream(s.name(), s.text());
                break;
            }
            case DISPLAY_DATA: {
                Event.DisplayData d = (Event.DisplayData) event;
                Map<String, Object> out = output("display_data");
                out.put("data", bundle(d.data()));
                out.put("metadata", d.metadata() == null ? new LinkedHashMap<String, Object>() : d.metadata());
                if (d.displayId() != null) {
                    displays.put(d.displayId(), out);
                }
                break;
            }
            case CLEAR_OUTPUT: // the notebook keeps what the cell showed last, as a notebook saved after it ran
                outputs.clear();
                displays.clear();
                break;
            case EXECUTE_RESULT: {
                Event.ExecuteResult r = (Event.ExecuteResult) event;
                Map<String, Object> out = output("execute_result");
                out.put("execution_count", r.executionCount());
                out.put("data", bundle(r.data()));
                out.put("metadata", r.metadata() == null ? new LinkedHashMap<String, Object>() : r.metadata());
                break;
            }
            case ERROR: {
                Event.Error e = (Event.Error) event;
                Map<String, Object> out = output("error");
                out.put("ename", e.ename());
                out.put("evalue", e.evalue());
                out.put("traceback", new ArrayList<Object>(e.traceback()));
                break;
            }
            case TRUNCATED:
                stream(StreamName.STDERR, "\n[output truncated at " + ((Event.Truncated) event).limitBytes() + " bytes]\n");
                break;
            case ARTIFACT:
                files.add(((Event.Artifact) event).name());
                break;
            case RESTARTED:
                stream(StreamName.STDERR, "[the interpreter was restarted: " + ((Event.Restarted) event).reason() + "]\n");
                break;
            case RESUMED: // a pause of the kernel, not an output: a notebook saved after the cell ran would not show it
                break;
            case FINISHED: {
                Event.Finished f = (Event.Finished) event;
                status = f.status();
                durationMs = f.durationMs();
                if (executionCount == null) {
                    executionCount = f.executionCount();
                }
                break;
            }
            default: // queued is the draft itself; kinds added later leave the cell as it is
                break;
        }
    }

    /** Replaces the output this cell shows with {@code u}'s display id; false if it shows none. */
    boolean update(Event.UpdateDisplayData u) {
        Map<String, Object> out = displays.get(u.displayId());
        if (out == null) {
            return false;
        }
        out.put("data", bundle(u.data()));
        out.put("metadata", u.metadata() == null ? new LinkedHashMap<String, Object>() : u.metadata());
        return true;
    }

    Map<String, Object> toCell(String id) {
        Map<String, Object> ours = new LinkedHashMap<>();
        ours.put("language", language.wire());
        if (status != null) {
            ours.put("status", status.wire());
        }
        if (durationMs != null) {
            ours.put("duration_ms", durationMs);
        }
        if (!files.isEmpty()) {
            ours.put("files", new ArrayList<>(files));
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("codeinterp", ours);
        Map<String, Object> cell = new LinkedHashMap<>();
        cell.put("id", id);
        cell.put("cell_type", "code");
        cell.put("metadata", metadata);
        cell.put("execution_count", executionCount);
        cell.put("source", code);
        cell.put("outputs", new ArrayList<Object>(outputs));
        return cell;
    }

    /** Text of one stream joins the stream output before it, as Jupyter stores a cell's prints. */
    private void stream(StreamName name, String text) {
        if (!outputs.isEmpty()) {
            Map<String, Object> last = outputs.get(outputs.size() - 1);
            if ("stream".equals(last.get("output_type")) && name.wire().equals(last.get("name"))) {
                last.put("text", last.get("text") + text);
                return;
            }
        }
        Map<String, Object> out = output("stream");
        out.put("name", name.wire());
        out.put("text", text);
    }

    private Map<String, Object> output(String type) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("output_type", type);
        outputs.add(out);
        return out;
    }

    /**
     * A MIME bundle as nbformat wants it: JSON types as JSON values (the runner may send them as JSON
     * text), every other type as a string (binary types are already base64).
     */
    private static Map<String, Object> bundle(Map<String, Object> data) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (data == null) {
            return out;
        }
        for (Map.Entry<String, Object> entry : data.entrySet()) {
            String mime = entry.getKey();
            Object value = entry.getValue();
            if (isJsonMime(mime)) {
                out.put(mime, value instanceof String ? parsedOrText((String) value) : value);
            } else if (value instanceof String) {
                out.put(mime, value);
            } else if (value != null) {
                out.put(mime, Json.write(value));
            }
        }
        return out;
    }

    private static Object parsedOrText(String text) {
        try {
            return Json.parse(text);
        } catch (JsonException e) {
            return text;
        }
    }

    /** nbformat's {@code ^application/(.*\+)?json$}: the types whose value may be any JSON. */
    static boolean isJsonMime(String mime) {
        return mime.startsWith("application/") && (mime.equals("application/json") || mime.endsWith("+json"));
    }
}
