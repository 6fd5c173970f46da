package dev.codeinterp.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Folds one execution's events into the REST one-shot answer ({@link ExecuteResponse}): stdout and
 * stderr concatenated, every MIME bundle a result, PNGs also images, the first error kept,
 * truncation noted on stderr. The one home of these rules: the server's REST answers and the embed
 * widget's {@code run()} results both come from it.
 */
public final class ResultFold {
    private final StringBuilder stdout = new StringBuilder();
    private final StringBuilder stderr = new StringBuilder();
    private final List<Map<String, Object>> results = new ArrayList<>();
    private final List<ExecuteResponse.Image> images = new ArrayList<>();
    private ExecuteResponse.ErrorInfo error;

    /** Takes one event; returns the answer once {@code finished} arrives, else null. */
    public ExecuteResponse add(Event event, double executionSeconds) {
        switch (event.type()) {
            case STREAM: {
                Event.Stream s = (Event.Stream) event;
                (s.name() == StreamName.STDERR ? stderr : stdout).append(s.text());
                return null;
            }
            case DISPLAY_DATA:
                bundle(((Event.DisplayData) event).data());
                return null;
            case EXECUTE_RESULT:
                bundle(((Event.ExecuteResult) event).data());
                return null;
            case ERROR: {
                Event.Error e = (Event.Error) event;
                if (error == null) {
                    error = new ExecuteResponse.ErrorInfo(e.ename(), e.evalue(), String.join("\n", e.traceback()));
                }
                return null;
            }
            case TRUNCATED:
                stderr.append("\n[output truncated at ").append(((Event.Truncated) event).limitBytes()).append(" bytes]\n");
                return null;
            case FINISHED: {
                Status status = ((Event.Finished) event).status();
                return new ExecuteResponse(status == Status.OK, status, stdout.toString(), stderr.toString(),
                        List.copyOf(results), List.copyOf(images), error, executionSeconds, List.of());
            }
            default:
                return null;
        }
    }

    private void bundle(Map<String, Object> data) {
        results.add(data);
        if (data.get("image/png") instanceof String png) {
            images.add(new ExecuteResponse.Image("png", png));
        }
    }
}
