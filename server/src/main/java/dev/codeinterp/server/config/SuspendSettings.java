package dev.codeinterp.server.config;

import java.time.Duration;

/**
 * Idle sessions suspended to disk (docs/settings.md): after {@code after} without use (where the
 * runtime can checkpoint), kept with their variables for {@code keptFor}, within {@code diskBytes}
 * of checkpoints in all; past either bound the longest suspended give up their variables first.
 */
public record SuspendSettings(Duration after, Duration keptFor, long diskBytes) {

    public SuspendSettings {
        if (after.isNegative() || after.isZero() || keptFor.isNegative() || keptFor.isZero()) {
            throw new IllegalArgumentException("SUSPEND_AFTER and SUSPENDED_TTL must be positive");
        }
        if (diskBytes <= 0) {
            throw new IllegalArgumentException("SUSPEND_DISK must be positive, got " + diskBytes);
        }
    }

    static SuspendSettings read(EnvReader r) {
        return new SuspendSettings(
                r.duration("SUSPEND_AFTER", Duration.ofMinutes(15)),
                r.duration("SUSPENDED_TTL", Duration.ofDays(7)),
                r.bytes("SUSPEND_DISK", 20L << 30));
    }
}
