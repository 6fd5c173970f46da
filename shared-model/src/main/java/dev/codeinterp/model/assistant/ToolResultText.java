package dev.codeinterp.model.assistant;

import dev.codeinterp.model.Event;

import java.util.List;
import java.util.Map;

/**
 * What a cell's events tell the model, as text: its status, stdout, stderr, the trailing value,
 * the error with its traceback (ANSI colours removed), images and other rich outputs described by
 * type and size (their bytes are never sent), files it wrote. Bounded by a budget of characters:
 * past it the middle is cut (the start and the end, where errors are, both survive) and the cut is said.
 */
public final class ToolResultText {
    private static final String ANSI = "\u001b\\[[0-9;?]*[ -/]*[@-~]";

    private ToolResultText() {
    }

    public static String of(List<Event> cell, int budget) {
        StringBuilder stdout = new StringBuilder();
        StringBuilder stderr = new StringBuilder();
        StringBuilder rest = new StringBuilder();
        String status = "unknown";
        for (Event e : cell) {
            switch (e.type()) {
                case STREAM -> {
                    Event.Stream s = (Event.Stream) e;
                    (s.name() == dev.codeinterp.model.StreamName.STDERR ? stderr : stdout).append(s.text());
                }
                case EXECUTE_RESULT -> rest.append("result:\n").append(bundle(((Event.ExecuteResult) e).data())).append('\n');
                case DISPLAY_DATA -> rest.append("display:\n").append(bundle(((Event.DisplayData) e).data())).append('\n');
                case ERROR -> {
                    Event.Error err = (Event.Error) e;
                    rest.append("error: ").append(err.ename()).append(": ").append(err.evalue()).append('\n');
                    for (String line : err.traceback()) {
                        rest.append(line.replaceAll(ANSI, "")).append('\n');
                    }
                }
                case TRUNCATED -> rest.append("[the sandbox cut the output at ").append(((Event.Truncated) e).limitBytes())
                        .append(" bytes]\n");
                case ARTIFACT -> {
                    Event.Artifact a = (Event.Artifact) e;
                    rest.append("file written: ").append(a.name()).append(" (").append(a.mime()).append(", ")
                            .append(a.size()).append(" bytes)\n");
                }
                case RESTARTED -> rest.append("[the interpreter was restarted: ").append(((Event.Restarted) e).reason())
                        .append("; its state is gone]\n");
                // the interpreter came back from disk as it was: nothing the model knows changed, and a
                // note would only tempt it to set up again what is still there (a loss says restarted)
                case RESUMED -> {
                }
                case FINISHED -> status = ((Event.Finished) e).status().wire();
                default -> {
                }
            }
        }
        StringBuilder out = new StringBuilder("status: ").append(status).append('\n');
        if (stdout.length() > 0) {
            out.append("stdout:\n").append(stdout).append(stdout.charAt(stdout.length() - 1) == '\n' ? "" : "\n");
        }
        if (stderr.length() > 0) {
            out.append("stderr:\n").append(stderr).append(stderr.charAt(stderr.length() - 1) == '\n' ? "" : "\n");
        }
        out.append(rest);
        return bounded(out.toString(), budget);
    }

    /** A MIME bundle: its plain text if it has one, and every other type by name and size. */
    private static String bundle(Map<String, Object> data) {
        StringBuilder out = new StringBuilder();
        Object plain = data.get("text/plain");
        if (plain instanceof String text) {
            out.append(text.replaceAll(ANSI, "")).append('\n');
        }
        for (Map.Entry<String, Object> entry : data.entrySet()) {
            if (entry.getKey().equals("text/plain")) {
                continue;
            }
            int size = entry.getValue() instanceof String s ? s.length() : String.valueOf(entry.getValue()).length();
            boolean base64 = entry.getKey().startsWith("image/") && !entry.getKey().equals("image/svg+xml");
            out.append('[').append(entry.getKey()).append(", ")
                    .append(base64 ? size / 4 * 3 + " bytes" : size + " characters").append(", not shown]\n");
        }
        return out.toString().stripTrailing();
    }

    /** At most {@code budget} characters: two thirds from the start, a note, the rest from the end. */
    public static String bounded(String text, int budget) {
        if (text.length() <= budget) {
            return text;
        }
        int room = Math.max(0, budget - 48); // the note's length, with room for the number
        int head = room * 2 / 3;
        int tail = room - head;
        String note = "\n[… " + (text.length() - head - tail) + " characters not shown …]\n";
        return text.substring(0, head) + note + text.substring(text.length() - tail);
    }
}
