package dev.codeinterp.server.assistant;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Server-sent events as the HTML standard defines them, read from bytes: lines end in LF, CRLF or
 * CR (split anywhere across network reads), {@code :} lines are comments (keep-alives), several
 * {@code data:} lines join with a newline, and a blank line dispatches. Only {@code data} matters
 * to chat completions; {@code event}, {@code id} and {@code retry} are read and ignored.
 */
final class SseReader {
    /** A longer line than this is a broken or hostile stream, not a chunk. */
    static final int MAX_LINE_BYTES = 4 << 20;

    interface DataListener {
        /** Returns false to stop reading (the {@code [DONE]} sentinel). */
        boolean onData(String data) throws IOException;
    }

    private SseReader() {
    }

    /** Reads until the listener stops or the stream ends; returns whether the listener stopped it. */
    static boolean read(InputStream in, DataListener listener) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        StringBuilder data = null;
        boolean lastWasCr = false;
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n' && lastWasCr) {
                lastWasCr = false; // the LF of a CRLF: the line already ended at the CR
                continue;
            }
            lastWasCr = b == '\r';
            if (b != '\n' && b != '\r') {
                if (line.size() >= MAX_LINE_BYTES) {
                    throw new IOException("an event-stream line longer than " + MAX_LINE_BYTES + " bytes");
                }
                line.write(b);
                continue;
            }
            String text = line.toString(StandardCharsets.UTF_8);
            line.reset();
            if (text.isEmpty()) {
                if (data != null && !listener.onData(data.toString())) {
                    return true;
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
        // a stream that ends without a blank line still delivers its last event (some servers do this)
        if (line.size() > 0 && data == null) {
            String value = field(line.toString(StandardCharsets.UTF_8), "data");
            data = value == null ? null : new StringBuilder(value);
        }
        return data != null && !listener.onData(data.toString());
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
