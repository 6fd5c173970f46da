package dev.codeinterp.server.mcp;

import dev.codeinterp.model.Event;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Streams a running cell's output to the MCP client as progress notifications. It hears its own
 * cell's events (the session manager's execute picks them out) and hands text to a sender thread:
 * the session's event thread never waits on a slow client. Output past a cap is summarised; the tool
 * result carries everything anyway.
 */
final class ProgressRelay implements Consumer<Event> {
    private static final Logger log = LoggerFactory.getLogger(ProgressRelay.class);
    private static final int MAX_MESSAGE_CHARS = 16 << 10;
    private static final long MAX_RELAYED_CHARS = 1L << 20;

    private final Object progressToken;
    private final Consumer<ProgressNotification> sink;
    private final Executor sender;
    private final StringBuilder pending = new StringBuilder();
    private long relayed;
    private long progress;
    private boolean flushing;
    private boolean capped;

    ProgressRelay(Object progressToken, Consumer<ProgressNotification> sink, Executor sender) {
        this.progressToken = progressToken;
        this.sink = sink;
        this.sender = sender;
    }

    @Override
    public synchronized void accept(Event event) {
        switch (event.type()) {
            case QUEUED -> queue("running");
            case STREAM -> queue(((Event.Stream) event).text());
            case DISPLAY_DATA -> queue("[display output]\n");
            default -> {
                // the rest (results, errors, the end) arrives in the tool result
            }
        }
    }

    private void queue(String text) {
        if (relayed + text.length() > MAX_RELAYED_CHARS) {
            if (!capped) {
                capped = true;
                pending.append("\n[further output is only in the result]\n");
            }
        } else {
            relayed += text.length();
            pending.append(text);
        }
        if (!flushing && pending.length() > 0) {
            flushing = true;
            sender.execute(this::flush);
        }
    }

    /**
     * Waits (at most {@code maxMillis}) until what was queued has been sent: the tool result must not
     * overtake its progress notifications, which a client drops once it has the result.
     */
    synchronized void drain(long maxMillis) {
        long deadline = System.currentTimeMillis() + maxMillis;
        while (flushing || pending.length() > 0) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return;
            }
            try {
                wait(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void flush() {
        while (true) {
            String message;
            double step;
            synchronized (this) {
                if (pending.length() == 0) {
                    flushing = false;
                    notifyAll();
                    return;
                }
                int n = Math.min(pending.length(), MAX_MESSAGE_CHARS);
                message = pending.substring(0, n);
                pending.delete(0, n);
                step = ++progress;
            }
            try {
                sink.accept(new ProgressNotification(progressToken, step, null, message));
            } catch (RuntimeException e) {
                log.debug("a progress notification could not be sent: {}", e.getMessage());
            }
        }
    }
}
