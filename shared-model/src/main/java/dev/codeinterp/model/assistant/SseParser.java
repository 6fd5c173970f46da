package dev.codeinterp.model.assistant;

/**
 * Server-sent events as the HTML standard defines them, pushed in as text however the network cut
 * it (the server feeds what its UTF-8 decoder made of the bytes, the browser what TextDecoder made
 * of them): lines end in LF, CRLF or CR (split anywhere, even between the CR and the LF), {@code :}
 * lines are comments (keep-alives), several {@code data:} lines join with a newline, and a blank
 * line dispatches. Only {@code data} matters to chat completions; {@code event}, {@code id} and
 * {@code retry} are read and ignored. Not thread-safe: one reader feeds it.
 */
public final class SseParser {
    /** A longer line than this is a broken or hostile stream, not a chunk. */
    public static final int MAX_LINE_CHARS = 4 << 20;

    public interface DataListener {
        /** Returns false to stop reading (the {@code [DONE]} sentinel). */
        boolean onData(String data);
    }

    /** A line past {@link #MAX_LINE_CHARS}. */
    public static final class LineTooLong extends RuntimeException {
        LineTooLong() {
            super("an event-stream line longer than " + MAX_LINE_CHARS + " characters");
        }
    }

    private final DataListener listener;
    private final StringBuilder line = new StringBuilder();
    private StringBuilder data;
    private boolean lastWasCr;
    private boolean stopped;

    public SseParser(DataListener listener) {
        this.listener = listener;
    }

    /** Whether the listener stopped the stream; nothing more is read after that. */
    public boolean stopped() {
        return stopped;
    }

    /** Reads the next piece of the stream; returns false once the listener has stopped it. */
    public boolean feed(CharSequence text) {
        for (int i = 0; i < text.length() && !stopped; i++) {
            char c = text.charAt(i);
            if (c == '\n' && lastWasCr) {
                lastWasCr = false; // the LF of a CRLF: the line already ended at the CR
                continue;
            }
            lastWasCr = c == '\r';
            if (c != '\n' && c != '\r') {
                if (line.length() >= MAX_LINE_CHARS) {
                    throw new LineTooLong();
                }
                line.append(c);
                continue;
            }
            String complete = line.toString();
            line.setLength(0);
            endLine(complete);
        }
        return !stopped;
    }

    /**
     * The stream ended: a last event without its blank line still counts (some servers end so).
     * Returns whether the listener stopped the stream (at any time).
     */
    public boolean end() {
        if (!stopped && line.length() > 0 && data == null) {
            String value = field(line.toString(), "data");
            data = value == null ? null : new StringBuilder(value);
        }
        line.setLength(0);
        if (!stopped && data != null) {
            stopped = !listener.onData(data.toString());
        }
        data = null;
        return stopped;
    }

    private void endLine(String text) {
        if (text.isEmpty()) {
            if (data != null) {
                stopped = !listener.onData(data.toString());
            }
            data = null;
        } else if (text.startsWith("data")) {
            String value = field(text, "data");
            if (value != null) {
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        // comments (":"), event, id, retry and unknown fields are ignored, as the standard says
    }

    /** The value of {@code name:value} or {@code name: value}, or null when the line is another field. */
    private static String field(String line, String name) {
        if (line.equals(name)) {
            return "";
        }
        if (!line.startsWith(name + ":")) {
            return null;
        }
        String value = line.substring(name.length() + 1);
        return value.startsWith(" ") ? value.substring(1) : value;
    }
}
