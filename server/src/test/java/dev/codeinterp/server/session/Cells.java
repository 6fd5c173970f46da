package dev.codeinterp.server.session;

import java.time.Duration;

/** Cells for tests, built and checked as the server builds them, within the default settings' limits. */
public final class Cells {
    /** As the server's defaults: 1 MiB of code, 30 s unless asked, 10 min at most. */
    public static final CellLimits LIMITS = new CellLimits(1L << 20, Duration.ofSeconds(30), Duration.ofMinutes(10));

    private Cells() {
    }

    public static Cell python(String code) {
        return LIMITS.cell(code).build();
    }

    /** With its own timeout (the session tests use short ones). */
    public static Cell python(String code, Duration timeout) {
        return LIMITS.cell(code).timeoutSeconds(timeout.toMillis() / 1000.0).build();
    }
}
