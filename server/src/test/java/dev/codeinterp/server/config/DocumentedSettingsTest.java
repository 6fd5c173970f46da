package dev.codeinterp.server.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/settings.md has one row for every setting the server reads and none it does not, and each
 * row's default is what the server uses when the variable is unset. A default in backticks is
 * checked by setting the variable to it: the settings must come out as they do without it. A
 * default of "unset" is checked on the value the variable would fill: the code must leave it empty.
 */
class DocumentedSettingsTest {
    private static final Path TABLE = Path.of("..", "docs", "settings.md");
    private static final Path README = Path.of("..", "README.md");
    private static final Pattern PREFIXED = Pattern.compile("CODEINTERP_([A-Z][A-Z_]*[A-Z])");
    private static final Pattern ROW = Pattern.compile("^\\| `CODEINTERP_([A-Z][A-Z_]*[A-Z])` \\| ([^|]*) \\|", Pattern.MULTILINE);
    private static final Pattern LITERAL = Pattern.compile("`([^`]+)`");
    private static final Pattern LOGBACK_DEFAULT = Pattern.compile("\\$\\{CODEINTERP_([A-Z_]+):-([^}]*)}");

    /** Where the value of each setting documented as "unset" lands, so the test can see the code gives it none. */
    private static final Map<String, Function<Configured, Object>> UNSET = Map.ofEntries(
            entry("RUNTIME", c -> c.settings().runtime()),
            entry("DOCKER_HOST", c -> c.settings().dockerHost()),
            entry("API_KEYS", c -> c.settings().apiKeys()),
            entry("ALLOWED_HOSTS", c -> c.settings().browserAccess().allowedHosts()),
            entry("ALLOWED_ORIGINS", c -> c.settings().browserAccess().allowedOrigins()),
            entry("TRUSTED_PROXIES", c -> c.settings().trustedProxies().ranges()),
            entry("PACKAGES_ALLOWLIST", c -> c.settings().packages().allowlist()),
            entry("DATABASE_URL", c -> c.settings().database().url()),
            entry("DATABASE_USER", c -> c.settings().database().user()),
            entry("DATABASE_PASSWORD_FILE", c -> c.settings().database().password()),
            entry("NODE_ID", c -> c.settings().node().id()),
            entry("NODE_URL", c -> c.settings().node().url()),
            entry("LLM_BASE_URL", c -> c.assistant().baseUrl()),
            entry("LLM_MODEL", c -> c.assistant().model()),
            entry("LLM_API_KEY", c -> c.assistant().apiKey()));

    /** What the server makes of an environment: the settings and the assistant's settings. */
    record Configured(Settings settings, AssistantSettings assistant) {
        static Configured from(Map<String, String> env) {
            return new Configured(Settings.fromEnvironment(env), AssistantSettings.fromEnvironment(env));
        }
    }

    @Test
    void the_table_has_a_row_for_every_setting_the_server_reads_and_for_no_other() throws IOException {
        assertThat(documentedDefaults().keySet()).as("the settings docs/settings.md lists")
                .containsExactlyInAnyOrderElementsOf(settingsTheServerReads());
    }

    @Test
    void every_default_in_backticks_is_what_the_server_uses_when_the_variable_is_unset() throws IOException {
        Map<String, String> documented = documentedDefaults();
        Configured unset = Configured.from(Map.of());
        Map<String, String> logback = logbackDefaults();
        Map<String, String> drifted = new TreeMap<>();
        documented.forEach((name, cell) -> {
            if (cell.equals("unset")) {
                return;
            }
            String value = literalOf(name, cell).replace("$DATA_DIR", literalOf("DATA_DIR", documented.get("DATA_DIR")));
            if (logback.containsKey(name)) {
                if (!logback.get(name).equals(value)) {
                    drifted.put(name, "documented " + value + ", logback.xml uses " + logback.get(name));
                }
            } else if (!Configured.from(Map.of("CODEINTERP_" + name, value)).equals(unset)) {
                drifted.put(name, "documented " + value + ", but setting it to that changes what the server uses");
            }
        });
        assertThat(drifted).as("defaults in docs/settings.md that are not the code's").isEmpty();
    }

    @Test
    void a_setting_documented_as_unset_has_no_value_of_its_own() throws IOException {
        Set<String> documentedUnset = new TreeSet<>();
        documentedDefaults().forEach((name, cell) -> {
            if (cell.equals("unset")) {
                documentedUnset.add(name);
            }
        });
        assertThat(documentedUnset).as("settings documented as unset (each needs its entry in UNSET)")
                .containsExactlyInAnyOrderElementsOf(UNSET.keySet());
        Configured unset = Configured.from(Map.of());
        Map<String, Object> given = new TreeMap<>();
        UNSET.forEach((name, value) -> {
            Object v = value.apply(unset);
            if (v != null && !(v instanceof Collection<?> c && c.isEmpty())) {
                given.put(name, v);
            }
        });
        assertThat(given).as("settings documented as unset that the code gives a value").isEmpty();
    }

    @Test
    void a_default_that_drifts_is_seen() {
        Configured unset = Configured.from(Map.of());
        assertThat(Configured.from(Map.of("CODEINTERP_POOL_SIZE", "2"))).isEqualTo(unset);
        assertThat(Configured.from(Map.of("CODEINTERP_POOL_SIZE", "3"))).isNotEqualTo(unset);
        assertThat(Configured.from(Map.of("CODEINTERP_SUSPENDED_TTL", "7d"))).isEqualTo(unset);
        assertThat(Configured.from(Map.of("CODEINTERP_LLM_MAX_TOKENS", "2047"))).isNotEqualTo(unset);
    }

    @Test
    void the_readme_sends_readers_to_the_table_and_names_no_setting_the_server_does_not_read() throws IOException {
        String readme = Files.readString(README);
        assertThat(readme).contains("(docs/settings.md)");
        Set<String> read = settingsTheServerReads();
        Set<String> unknown = new TreeSet<>();
        for (String text : List.of(readme, Files.readString(TABLE))) {
            Matcher m = PREFIXED.matcher(text);
            while (m.find()) {
                if (!read.contains(m.group(1))) {
                    unknown.add(m.group(1));
                }
            }
        }
        assertThat(unknown).as("CODEINTERP_* names in README.md or docs/settings.md the server does not read").isEmpty();
    }

    /** Each row of the table: the name without its prefix, and the default cell as written. */
    private static Map<String, String> documentedDefaults() throws IOException {
        Map<String, String> rows = new TreeMap<>();
        Matcher m = ROW.matcher(Files.readString(TABLE));
        while (m.find()) {
            assertThat(rows.put(m.group(1), m.group(2).strip())).as("a second row for " + m.group(1)).isNull();
        }
        assertThat(rows).as("rows read from docs/settings.md").containsKeys("PORT", "LLM_BASE_URL", "LOG_LEVEL");
        return rows;
    }

    private static String literalOf(String name, String cell) {
        Matcher m = LITERAL.matcher(cell);
        assertThat(m.matches()).as(name + "'s default in docs/settings.md is one `value` or the word unset, not: " + cell)
                .isTrue();
        return m.group(1);
    }

    /** The defaults logback.xml gives the variables it reads itself: {@code ${CODEINTERP_X:-default}}. */
    private static Map<String, String> logbackDefaults() throws IOException {
        Map<String, String> defaults = new TreeMap<>();
        Matcher m = LOGBACK_DEFAULT.matcher(logback());
        while (m.find()) {
            defaults.put(m.group(1), m.group(2));
        }
        return defaults;
    }

    private static String logback() throws IOException {
        try (InputStream in = DocumentedSettingsTest.class.getResourceAsStream("/logback.xml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Every CODEINTERP_* name the settings ask the environment for, and the log level logback reads. */
    private static Set<String> settingsTheServerReads() throws IOException {
        Set<String> asked = new TreeSet<>();
        HashMap<String, String> env = new HashMap<>() {
            @Override
            public String get(Object key) {
                if (key instanceof String name && name.startsWith("CODEINTERP_")) {
                    asked.add(name.substring("CODEINTERP_".length()));
                }
                return super.get(key);
            }
        };
        Configured.from(env);
        asked.addAll(logbackDefaults().keySet());
        assertThat(asked).as("the recording saw the settings being read").contains("PORT", "LLM_BASE_URL", "PACKAGE_CACHE", "LOG_LEVEL");
        return asked;
    }
}
