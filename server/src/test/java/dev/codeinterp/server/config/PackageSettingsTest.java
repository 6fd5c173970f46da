package dev.codeinterp.server.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PackageSettingsTest {
    @Test
    void by_default_packages_come_from_pypi_and_npm_into_a_cache_under_the_data_dir() {
        PackageSettings p = Settings.fromEnvironment(Map.of("CODEINTERP_DATA_DIR", "/srv/ci")).packages();
        assertThat(p.allowlist()).as("the shipped list").isNull();
        assertThat(p.cacheDir()).isEqualTo(Path.of("/srv/ci/package-cache"));
        assertThat(p.pythonIndexUrl()).isEqualTo("https://pypi.org/simple");
        assertThat(p.npmRegistry()).isEqualTo("https://registry.npmjs.org/");
        assertThat(p.fetchTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(p.installTimeout()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void an_index_that_is_not_an_http_url_fails_the_start() {
        for (String bad : new String[] {"file:///etc", "pypi.org/simple", "--index-url=x", "ftp://mirror/simple", "http://"}) {
            assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("CODEINTERP_PYTHON_INDEX_URL", bad)))
                    .as(bad).hasMessageContaining("CODEINTERP_PYTHON_INDEX_URL must be an http(s) URL");
        }
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("CODEINTERP_NPM_REGISTRY", "git+https://x")))
                .hasMessageContaining("CODEINTERP_NPM_REGISTRY");
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("CODEINTERP_PACKAGE_INSTALL_TIMEOUT", "0")))
                .hasMessageContaining("PACKAGE_INSTALL_TIMEOUT");
    }
}
