package dev.codeinterp.server.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The README names every setting the server reads, and no setting it does not. */
class DocumentedSettingsTest {
    private static final Pattern PREFIXED = Pattern.compile("CODEINTERP_([A-Z][A-Z_]*[A-Z])");

    @Test
    void the_readme_and_the_server_name_the_same_settings() throws IOException {
        Set<String> read = settingsTheServerReads();
        String readme = Files.readString(Path.of("..", "README.md"));
        Set<String> undocumented = new TreeSet<>();
        for (String name : read) {
            if (!readme.contains("CODEINTERP_" + name) && !readme.contains("`" + name + "`")) {
                undocumented.add(name);
            }
        }
        assertThat(undocumented).as("settings the server reads that README.md does not name").isEmpty();
        Set<String> unknown = new TreeSet<>();
        Matcher m = PREFIXED.matcher(readme);
        while (m.find()) {
            if (!read.contains(m.group(1))) {
                unknown.add(m.group(1));
            }
        }
        assertThat(unknown).as("CODEINTERP_* names in README.md the server does not read").isEmpty();
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
        Settings.fromEnvironment(env);
        AssistantSettings.fromEnvironment(env);
        try (InputStream in = DocumentedSettingsTest.class.getResourceAsStream("/logback.xml")) {
            Matcher m = PREFIXED.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            while (m.find()) {
                asked.add(m.group(1));
            }
        }
        assertThat(asked).as("the recording saw the settings being read").contains("PORT", "LLM_BASE_URL", "PACKAGE_CACHE", "LOG_LEVEL");
        return asked;
    }
}
