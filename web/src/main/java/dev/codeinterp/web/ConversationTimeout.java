package dev.codeinterp.web;

import dev.codeinterp.model.health.Health;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.server.ServerHealth;
import dev.codeinterp.web.view.TimeoutPicker;

/**
 * The timeout a conversation's cells ask for, in both modes: the one picked in the composer is kept
 * in this browser by the conversation's route (as {@link ConversationLanguage} keeps the language),
 * else the default. A kept value that is not offered (hand-edited, or from a server with a lower
 * maximum) reads as the default, so no cell asks more than the most. A server says its default and
 * most on {@code /healthz}; local mode asks nothing of the network, and its runtime frame says them
 * (the server's settings its page came with) when it is ready. Until then a cell gets the default.
 */
final class ConversationTimeout {
    private static final String KEY = "codeinterp.timeout.";

    private final TimeoutPicker picker = new TimeoutPicker(this::picked);
    private String route;
    /** The default and most, in seconds, once they were said for the open conversation. */
    private long defaultSeconds;
    private long maxSeconds;

    TimeoutPicker picker() {
        return picker;
    }

    /** A conversation opened: a server one learns its limits here, a local one from its frame ({@link #limits}). */
    void open(String route, boolean localMode) {
        this.route = route;
        maxSeconds = 0;
        picker.hide();
        if (localMode) {
            return;
        }
        ServerHealth.ask(health -> {
            if (health == null || health.limits() == null || !route.equals(this.route)) {
                return;
            }
            Health.Limits limits = health.limits();
            limits(limits.timeoutMs(), limits.maxTimeoutMs());
        });
    }

    /** The open conversation's interpreter takes cells of up to {@code maxMs}, {@code defaultMs} when none is asked. */
    void limits(long defaultMs, long maxMs) {
        if (route == null || maxMs < 1000 || defaultMs < 1000 || defaultMs > maxMs) {
            return; // an older server or frame: its default applies
        }
        defaultSeconds = defaultMs / 1000;
        maxSeconds = maxMs / 1000;
        picker.offer(defaultSeconds, maxSeconds, chosen());
    }

    void close() {
        route = null;
        maxSeconds = 0;
    }

    /** The seconds a cell run now asks for, or null: the interpreter's default (its limits are not known yet). */
    Double forCell() {
        return maxSeconds == 0 ? null : (double) chosen();
    }

    private void picked(long seconds) {
        if (route != null) {
            Browser.storageSet(KEY + route, String.valueOf(seconds));
        }
    }

    /** The kept choice if it is offered, else the default. */
    private long chosen() {
        String stored = route == null ? null : Browser.storageGet(KEY + route);
        if (stored != null && stored.matches("[0-9]{1,6}")) {
            long seconds = Long.parseLong(stored);
            if (TimeoutPicker.steps(defaultSeconds, maxSeconds).contains(seconds)) {
                return seconds;
            }
        }
        return defaultSeconds;
    }
}
