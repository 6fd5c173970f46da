package dev.codeinterp.server.sandbox;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Turns the attach stream's frames, which split anywhere, back into lines. A line longer than
 * {@code maxLineBytes} is dropped (counted, not kept) so hostile output cannot grow the heap.
 */
final class LineAssembler {
    private final int maxLineBytes;
    private final Consumer<String> lines;
    private final java.util.function.LongConsumer oversized;
    private ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private long droppedBytes = -1;

    LineAssembler(int maxLineBytes, Consumer<String> lines, java.util.function.LongConsumer oversized) {
        this.maxLineBytes = maxLineBytes;
        this.lines = lines;
        this.oversized = oversized;
    }

    void accept(byte[] bytes) {
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                append(bytes, start, i - start);
                endLine();
                start = i + 1;
            }
        }
        append(bytes, start, bytes.length - start);
    }

    private void append(byte[] bytes, int from, int length) {
        if (length == 0) {
            return;
        }
        if (droppedBytes >= 0) {
            droppedBytes += length;
        } else if (buffer.size() + length > maxLineBytes) {
            droppedBytes = buffer.size() + (long) length;
            buffer.reset();
        } else {
            buffer.write(bytes, from, length);
        }
    }

    private void endLine() {
        if (droppedBytes >= 0) {
            oversized.accept(droppedBytes);
            droppedBytes = -1;
        } else if (buffer.size() > 0) {
            lines.accept(buffer.toString(StandardCharsets.UTF_8));
        }
        // reset() keeps the grown array: after a large line (an image) start a small buffer again
        buffer = buffer.size() > 64 * 1024 ? new ByteArrayOutputStream() : buffer;
        buffer.reset();
    }
}
