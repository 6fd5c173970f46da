package dev.codeinterp.server.packages;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.runner.RunnerInstall;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fetch step on its own, with the host's real pip and npm: a local simple index, and npm's public registry. */
class PackagesFetchTest {
    @TempDir
    Path cacheDir;
    LocalPackageIndex index;
    Packages packages;

    @BeforeEach
    void start() {
        index = new LocalPackageIndex();
        index.publish("codeinterp-demo", "1.0", "codeinterp_demo", "from codeinterp_dep import VALUE\n", List.of("codeinterp-dep"));
        index.publish("codeinterp-dep", "2.0", "codeinterp_dep", "VALUE = 42\n", List.of());
        Duration bound = Duration.ofSeconds(90);
        packages = new Packages(Allowlist.parse(List.of("python codeinterp-demo", "javascript is-odd"), "test"),
                new PackageCache(cacheDir).open(),
                Map.of(Language.PYTHON, new PipFetch(index.url(), bound), Language.JAVASCRIPT, new NpmFetch("https://registry.npmjs.org", bound)),
                bound, bound);
    }

    @AfterEach
    void stop() {
        index.close();
    }

    @Test
    void pip_resolves_a_wheel_and_its_dependency_and_the_cache_serves_the_second_request() throws Exception {
        RunnerInstall first = packages.prepare(packages.check(Language.PYTHON, List.of("CodeInterp_Demo")));
        assertThat(first.cached()).isFalse();
        assertThat(first.packages()).containsExactly("codeinterp-demo");
        assertThat(first.artifacts()).hasSize(2);
        for (RunnerInstall.Artifact a : first.artifacts()) {
            Path blob = cacheDir.resolve("blobs").resolve(a.sha256());
            assertThat(PackageCache.sha256(blob)).as("stored under its own hash").isEqualTo(a.sha256());
            assertThat(a.path()).isEqualTo("/packages/" + a.sha256());
        }
        int requests = index.requests();
        RunnerInstall second = packages.prepare(packages.check(Language.PYTHON, List.of("codeinterp.demo")));
        assertThat(second.cached()).isTrue();
        assertThat(second.artifacts()).isEqualTo(first.artifacts());
        assertThat(index.requests()).as("no request to the index").isEqualTo(requests);
        try (var staging = Files.list(cacheDir.resolve("staging"))) {
            assertThat(staging).as("fetch folders are removed").isEmpty();
        }
    }

    @Test
    void npm_locks_the_tree_and_packs_each_tarball_checked_against_its_integrity() {
        RunnerInstall install = packages.prepare(packages.check(Language.JAVASCRIPT, List.of("is-odd@3.0.1")));
        assertThat(install.artifacts()).extracting(RunnerInstall.Artifact::dest)
                .containsExactlyInAnyOrder("node_modules/is-odd", "node_modules/is-number");
    }

    @Test
    void a_package_off_the_allowlist_or_a_hostile_name_is_refused_without_a_fetch() {
        assertThatThrownBy(() -> packages.check(Language.PYTHON, List.of("codeinterp-demo", "requests")))
                .isInstanceOf(PackageRefusedException.class)
                .hasMessage("python package 'requests' is not on this server's package allowlist, so the cell did not run (ask the operator to add it)");
        assertThatThrownBy(() -> packages.check(Language.PYTHON, List.of("--index-url=http://evil/simple")))
                .isInstanceOf(PackageRefusedException.class);
        assertThatThrownBy(() -> packages.check(Language.JAVASCRIPT, List.of("left-pad")))
                .hasMessageContaining("'left-pad' is not on this server's package allowlist");
        assertThat(index.requests()).isZero();
    }

    @Test
    void a_version_the_index_does_not_have_fails_the_fetch_with_pips_words() {
        assertThatThrownBy(() -> packages.prepare(packages.check(Language.PYTHON, List.of("codeinterp-demo==9.9"))))
                .isInstanceOf(PackageFetchException.class).hasMessageContaining("pip download failed")
                .hasMessageContaining("codeinterp-demo==9.9");
    }
}
