package dev.codeinterp.server.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Durations are written as docs/settings.md says: 500ms, 30s, 5m, 1h, 7d or plain seconds; anything else fails the start. */
class DurationSettingsTest {
    @Test
    void a_duration_in_days_is_that_many_days() {
        assertThat(ttl("7d")).isEqualTo(Duration.ofDays(7));
        assertThat(ttl("36h")).isEqualTo(Duration.ofHours(36));
        assertThat(ttl("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(ttl("90")).isEqualTo(Duration.ofSeconds(90));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2f", "7 d", "1w", "-1s", "1e3", "1.5m", "s"})
    void a_duration_in_another_form_is_refused_naming_the_variable(String value) {
        assertThatThrownBy(() -> ttl(value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("CODEINTERP_SUSPENDED_TTL='" + value + "' is not a duration like 30s, 500ms, 5m, 1h or 7d");
    }

    private static Duration ttl(String value) {
        return Settings.fromEnvironment(Map.of("CODEINTERP_SUSPENDED_TTL", value)).suspend().keptFor();
    }
}
