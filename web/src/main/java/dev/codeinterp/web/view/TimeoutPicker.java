package dev.codeinterp.web.view;

import dev.codeinterp.web.bindings.Browser;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.LongConsumer;

/**
 * The composer's cell timeout: a {@code <select>} of steps (10 s up to 1 h) up to the most this
 * server lets a cell ask ({@code /healthz} {@code limits.max_timeout_ms}), with the server's default
 * and its most among them, in both modes (local mode's runtime frame has the same settings with its
 * page and says them when it is ready). Hidden until the limits are known.
 */
public final class TimeoutPicker {
    private static final long[] STEPS = {10, 30, 60, 300, 600, 1800, 3600};

    private final HTMLElement root = Dom.el("label", "timeout-field");
    private final HTMLElement select = Dom.el("select", "timeout-picker");

    public TimeoutPicker(LongConsumer onPick) {
        select.setAttribute("data-testid", "cell-timeout");
        select.setAttribute("aria-label", "Cell timeout");
        select.addEventListener("change", e -> onPick.accept(Long.parseLong(Browser.value(select))));
        root.appendChild(Dom.text("span", "timeout-label", "Timeout"));
        root.appendChild(select);
        hide();
    }

    public HTMLElement root() {
        return root;
    }

    /** The seconds a cell may be given here: the steps up to {@code maxSeconds}, the default and the most. */
    public static List<Long> steps(long defaultSeconds, long maxSeconds) {
        TreeSet<Long> steps = new TreeSet<>();
        for (long step : STEPS) {
            if (step <= maxSeconds) {
                steps.add(step);
            }
        }
        steps.add(maxSeconds);
        if (defaultSeconds > 0 && defaultSeconds <= maxSeconds) {
            steps.add(defaultSeconds);
        }
        return new ArrayList<>(steps);
    }

    /** Offers {@link #steps} with {@code chosen} selected. */
    public void offer(long defaultSeconds, long maxSeconds, long chosen) {
        Dom.clear(select);
        for (long seconds : steps(defaultSeconds, maxSeconds)) {
            String label = words(seconds) + (seconds == defaultSeconds ? " (default)" : "");
            HTMLElement option = Dom.text("option", null, label);
            option.setAttribute("value", String.valueOf(seconds));
            select.appendChild(option);
        }
        Browser.setValue(select, String.valueOf(chosen));
        select.setAttribute("title", "How long each cell of this conversation may run before it is stopped (this server "
                + "allows up to " + words(maxSeconds) + ")");
        root.getStyle().setProperty("display", "");
    }

    /** Not offered: the limits are not known yet, or the server does not say them (its default applies). */
    public void hide() {
        root.getStyle().setProperty("display", "none");
    }

    /** 10 s, 90 s, 1 min, 5 min, 1 h. */
    static String words(long seconds) {
        if (seconds >= 3600 && seconds % 3600 == 0) {
            return seconds / 3600 + " h";
        }
        if (seconds >= 60 && seconds % 60 == 0) {
            return seconds / 60 + " min";
        }
        return seconds + " s";
    }
}
