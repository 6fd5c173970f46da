package dev.codeinterp.model.rest;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.EventType;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.StreamName;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Folds one execution's events into the REST one-shot answer ({@link ExecuteResponse}): stdout and
 * stderr concatenated, every MIME bundle a result, PNGs also images, the first error kept,
 * truncation noted on stderr; an update of a display replaces that display's result in place (an
 * update of another execution's display is not part of this answer); clear_output forgets the
 * text and results so far (with {@code wait}, once the next output arrives), as a notebook shows it. The one home of these rules: the server's REST answers and the embed
 * widget's {@code run()} results both come from it.
 */
public final class ResultFold {
    private final StringBuilder stdout = new StringBuilder();
    private final StringBuilder stderr = new StringBuilder();
    private final List<Map<String, Object>> results = new ArrayList<>();
    private final Map<String, Integer> resultByDisplayId = new HashMap<>();
    private ExecuteResponse.ErrorInfo error;
    private String restarted;
    private boolean clearBeforeNextOutput;

    /** Takes one event; returns the answer once {@code finished} arrives, else null. */
    public ExecuteResponse add(Event event, double executionSeconds) {
        if (clearBeforeNextOutput && isOutput(event.type())) {
            clear();
        }
        switch (event.type()) {
            case STREAM: {
                Event.Stream s = (Event.Stream) event;
                (s.name() == StreamName.STDERR ? stderr : stdout).append(s.text());
                return null;
            }
            case DISPLAY_DATA: {
                Event.DisplayData d = (Event.DisplayData) event;
                if (d.displayId() != null) {
                    resultByDisplayId.put(d.displayId(), results.size());
                }
                results.add(d.data());
                return null;
            }
            case UPDATE_DISPLAY_DATA: {
                Event.UpdateDisplayData u = (Event.UpdateDisplayData) event;
                Integer index = resultByDisplayId.get(u.displayId());
                if (index != null) {
                    results.set(index, u.data());
                }
                return null;
            }
            case EXECUTE_RESULT:
                results.add(((Event.ExecuteResult) event).data());
                return null;
            case ERROR: {
                Event.Error e = (Event.Error) event;
                if (error == null) {
                    error = new ExecuteResponse.ErrorInfo(e.ename(), e.evalue(), String.join("\n", e.traceback()));
                }
                return null;
            }
            case CLEAR_OUTPUT:
                if (((Event.ClearOutput) event).waitForNext()) {
                    clearBeforeNextOutput = true;
                } else {
                    clear();
                }
                return null;
            case RESTARTED:
                restarted = ((Event.Restarted) event).reason();
                return null;
            case TRUNCATED:
                stderr.append("\n[output truncated at ").append(((Event.Truncated) event).limitBytes()).append(" bytes]\n");
                return null;
            case FINISHED: {
                Status status = ((Event.Finished) event).status();
                return new ExecuteResponse(status == Status.OK, status, stdout.toString(), stderr.toString(),
                        List.copyOf(results), images(), error, executionSeconds, List.of(), restarted);
            }
            default:
                return null;
        }
    }

    private static boolean isOutput(EventType type) {
        return type == EventType.STREAM || type == EventType.DISPLAY_DATA || type == EventType.EXECUTE_RESULT
                || type == EventType.ERROR;
    }

    private void clear() {
        clearBeforeNextOutput = false;
        stdout.setLength(0);
        stderr.setLength(0);
        results.clear();
        resultByDisplayId.clear();
    }

    /** Every PNG of the results, in their order (after updates). */
    private List<ExecuteResponse.Image> images() {
        List<ExecuteResponse.Image> images = new ArrayList<>();
        for (Map<String, Object> data : results) {
            if (data.get("image/png") instanceof String png) {
                images.add(new ExecuteResponse.Image("png", png));
            }
        }
        return List.copyOf(images);
    }
}
