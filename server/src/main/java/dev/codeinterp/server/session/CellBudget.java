package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * A running cell's clocks and output budget: when it started, when its timeout falls, and how many
 * bytes of stream text it may still send. The cap is the server's own, whatever the runner claims:
 * text past it is dropped, and said once with a {@code truncated} event.
 */
final class CellBudget {
    private final long startedNanos;
    private final Duration timeout;
    private final long capBytes;
    private long outputBytes;
    private boolean truncated;

    CellBudget(Duration timeout, long capBytes, long startedNanos) {
        this.startedNanos = startedNanos;
        this.timeout = timeout;
        this.capBytes = capBytes;
    }

    Duration timeout() {
        return timeout;
    }

    /** When the timeout falls, on the {@link System#nanoTime()} clock. */
    long timeoutAt() {
        return startedNanos + timeout.toNanos();
    }

    long elapsedMs(long now) {
        return (now - startedNanos) / 1_000_000;
    }

    /** What of a stream event the user sees: all of it; the head that fits and the one notice; or nothing. */
    List<Event> admit(Event.Stream stream) {
        if (truncated) {
            return List.of();
        }
        byte[] utf8 = stream.text().getBytes(StandardCharsets.UTF_8);
        if (outputBytes + utf8.length <= capBytes) {
            outputBytes += utf8.length;
            return List.of(stream);
        }
        int room = (int) (capBytes - outputBytes);
        outputBytes = capBytes;
        truncated = true;
        Event.Truncated notice = new Event.Truncated(capBytes);
        if (room <= 0) {
            return List.of(notice);
        }
        return List.of(new Event.Stream(stream.name(), new String(utf8, 0, room, StandardCharsets.UTF_8)), notice);
    }

    /** The runner cut the cell's output itself: the notice, unless the cell already had it. */
    List<Event> truncatedByRunner() {
        if (truncated) {
            return List.of();
        }
        truncated = true;
        return List.of(new Event.Truncated(capBytes));
    }
}
