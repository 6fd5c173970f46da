package dev.codeinterp.server.session;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * What a cell may ask for, from the server's settings: code (and the lines or answers its
 * {@code input()} reads) up to {@code maxCodeBytes} in UTF-8, a timeout up to {@code maxTimeout}
 * ({@code defaultTimeout} when it asks none). Cells are built here and nowhere else.
 */
public record CellLimits(long maxCodeBytes, Duration defaultTimeout, Duration maxTimeout) {

    public CellLimits {
        Objects.requireNonNull(defaultTimeout, "defaultTimeout");
        Objects.requireNonNull(maxTimeout, "maxTimeout");
    }

    /** A cell of {@code code}, to be given the rest of what its request asked and built. */
    public Cell.Builder cell(String code) {
        return new Cell.Builder(this, code);
    }

    /** An answer to a waiting cell's {@code input()}, bounded as code is; refused with {@link CellRefusedException}. */
    public String reply(String value) {
        checkSize("input_reply value", value);
        return value;
    }

    void checkSize(String what, String text) {
        if (text.getBytes(StandardCharsets.UTF_8).length > maxCodeBytes) {
            throw new CellRefusedException(what + " is larger than " + maxCodeBytes + " bytes");
        }
    }

    /** The timeout for one cell: the asked one, bounded by the maximum, or the default. */
    Duration timeout(Double requestedSeconds) {
        if (requestedSeconds == null) {
            return defaultTimeout;
        }
        if (!(requestedSeconds > 0)) {
            throw new CellRefusedException("timeout must be a positive number of seconds");
        }
        Duration requested = Duration.ofMillis((long) (requestedSeconds * 1000));
        return requested.compareTo(maxTimeout) > 0 ? maxTimeout : requested;
    }
}
