package dev.codeinterp.server.session;

import java.time.Duration;

/** Durations in the words users read in errors: "30 s", "0.5 s". */
public final class Durations {
    private Durations() {
    }

    public static String words(Duration d) {
        double s = d.toMillis() / 1000.0;
        return (s == Math.rint(s) ? String.valueOf((long) s) : String.valueOf(s)) + " s";
    }
}
