package dev.codeinterp.server.assistant;

import java.util.ArrayList;
import java.util.List;

/** A Stop for one assistant turn: whatever is registered (the upstream request, a running cell) is stopped once. */
final class Cancellation {
    private final List<Runnable> actions = new ArrayList<>();
    private boolean cancelled;

    /** Registers what to do on cancel; runs it at once if already cancelled. Returns a handle that unregisters it. */
    Runnable onCancel(Runnable action) {
        synchronized (this) {
            if (!cancelled) {
                actions.add(action);
                return () -> {
                    synchronized (this) {
                        actions.remove(action);
                    }
                };
            }
        }
        action.run();
        return () -> { };
    }

    void cancel() {
        List<Runnable> toRun;
        synchronized (this) {
            if (cancelled) {
                return;
            }
            cancelled = true;
            toRun = new ArrayList<>(actions);
            actions.clear();
        }
        toRun.forEach(Runnable::run);
    }

    synchronized boolean cancelled() {
        return cancelled;
    }
}
