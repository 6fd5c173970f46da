package dev.codeinterp.web;

import dev.codeinterp.model.health.Health;
import dev.codeinterp.web.bindings.Browser;
import dev.codeinterp.web.server.ServerHealth;
import dev.codeinterp.web.view.TimeoutPicker;

/**
 * The timeout a conversation's cells ask for (server mode): the one picked in the composer is kept
 * in this browser by the conversation's route (as {@link ConversationLanguage} keeps the language),
 * else the server's default. A kept value this server does not offer (hand-edited, or from a server
 * with a lower maximum) reads as the default, so no cell asks more than {@code max_timeout_ms}.
 * Local mode asks none: its runtime frame applies the timeout the page was served with to every cell.
 */
final class ConversationTimeout {
    private static final String KEY = "codeinterp.timeout.";

    private final TimeoutPicker picker = new TimeoutPicker(this::picked);
    private String route;
    /** The server's default and most, in seconds, once {@code /healthz} said them and while a server conversation is open. */
    private long defaultSeconds;
    private long maxSeconds;

    TimeoutPicker picker() {
        return picker;
    }

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
            if (limits.maxTimeoutMs() < 1000 || limits.timeoutMs() < 1000) {
                return; // an older server: its default applies
            }
            defaultSeconds = limits.timeoutMs() / 1000;
            maxSeconds = limits.maxTimeoutMs() / 1000;
            picker.offer(defaultSeconds, maxSeconds, chosen());
        });
    }

    void close() {
        route = null;
        maxSeconds = 0;
    }

    /** The seconds a cell run now asks for, or null: the server's default (local mode, limits not known yet). */
    Double forCell() {
        return maxSeconds == 0 ? null : (double) chosen();
    }

    private void picked(long seconds) {
        if (route != null) {
            Browser.storageSet(KEY + route, String.valueOf(seconds));
        }
    }

    /** The kept choice if this server offers it, else its default. */
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
