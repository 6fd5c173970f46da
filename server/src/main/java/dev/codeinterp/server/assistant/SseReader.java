package dev.codeinterp.server.assistant;

import dev.codeinterp.model.assistant.SseParser;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;

/**
 * Reads a chat-completions event stream from bytes: a UTF-8 decoder (which joins characters split
 * across network reads) feeds the shared {@link SseParser}, whose rules the browser's local mode uses too.
 */
final class SseReader {
    /** A longer line than this is a broken or hostile stream, not a chunk. */
    static final int MAX_LINE_CHARS = SseParser.MAX_LINE_CHARS;

    interface DataListener {
        /** Returns false to stop reading (the {@code [DONE]} sentinel). */
        boolean onData(String data) throws IOException;
    }

    /** Carries a listener's IOException through the parser. */
    private static final class Wrapped extends RuntimeException {
        Wrapped(IOException cause) {
            super(cause);
        }
    }

    private SseReader() {
    }

    /** Reads until the listener stops or the stream ends; returns whether the listener stopped it. */
    static boolean read(InputStream in, DataListener listener) throws IOException {
        SseParser parser = new SseParser(data -> {
            try {
                return listener.onData(data);
            } catch (IOException e) {
                throw new Wrapped(e);
            }
        });
        Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8);
        char[] buffer = new char[8192];
        try {
            int n;
            while ((n = reader.read(buffer)) != -1) {
                if (!parser.feed(java.nio.CharBuffer.wrap(buffer, 0, n))) {
                    return true;
                }
            }
            return parser.end();
        } catch (Wrapped e) {
            throw (IOException) e.getCause();
        } catch (SseParser.LineTooLong e) {
            throw new IOException(e.getMessage());
        }
    }
}
