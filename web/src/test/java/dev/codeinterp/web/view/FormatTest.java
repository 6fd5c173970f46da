package dev.codeinterp.web.view;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** How a turn's footer writes durations and sizes: short, and never a misleading rounding. */
class FormatTest {
    @ParameterizedTest(name = "{0} ms reads {1}")
    @CsvSource({"0, 0 ms", "999, 999 ms", "1000, 1.0 s", "1234, 1.2 s", "59999, 59.9 s", "60000, 1 min 0 s", "125000, 2 min 5 s"})
    void durations(long ms, String shown) {
        assertThat(Format.duration(ms)).isEqualTo(shown);
    }

    @ParameterizedTest(name = "{0} s of a setting reads {1}")
    @CsvSource({"0, 0 s", "45, 45 s", "60, 1 min", "90, 1 min 30 s", "900, 15 min", "3600, 1 h", "5400, 1 h 30 min",
            "86400, 24 h"})
    void spans(long seconds, String shown) {
        assertThat(Format.span(seconds)).isEqualTo(shown);
    }

    @ParameterizedTest(name = "{0} KiB of memory reads {1}")
    @CsvSource({"0, 0 KiB", "10239, 10239 KiB", "10240, 10 MiB", "1048576, 1024 MiB"})
    void memory(long kb, String shown) {
        assertThat(Format.memory(kb)).isEqualTo(shown);
    }

    @ParameterizedTest(name = "{0} bytes read {1}")
    @CsvSource({"0, 0 B", "1023, 1023 B", "1024, 1 KiB", "1048575, 1023 KiB", "1048576, 1.0 MiB", "1572864, 1.5 MiB",
            "104752743, 99.9 MiB", "104857599, 99.9 MiB", "104857600, 100 MiB", "1073741824, 1024 MiB"})
    void bytes(long n, String shown) {
        assertThat(Format.bytes(n)).isEqualTo(shown);
    }
}
