package dev.codeinterp.server.packages;

import dev.codeinterp.model.Language;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * An index or registry this server cannot reach, with the host's real pip and npm: a closed port
 * (refused) and a port that accepts and never answers. The fetch fails within its bound, in one line
 * that names the index and the setting that points elsewhere, without the tools' retry logs or reprs.
 */
class UnreachableIndexTest {
    private static final Duration BOUND = Duration.ofSeconds(40);
    @TempDir
    Path cacheDir;
    private ServerSocket silent;

    @AfterEach
    void close() throws IOException {
        if (silent != null) {
            silent.close();
        }
    }

    /** A port nothing listens on. */
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** A port whose connections the kernel accepts and nobody ever answers. */
    private int silentPort() throws IOException {
        silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        return silent.getLocalPort();
    }

    private PackageFetchException fetch(Language language, String name, String url) {
        Packages packages = new Packages(Allowlist.parse(List.of("python humanize", "javascript left-pad"), "test"),
                new PackageCache(cacheDir).open(),
                Map.of(Language.PYTHON, new PipFetch(url, BOUND), Language.JAVASCRIPT, new NpmFetch(url, BOUND)), BOUND, BOUND);
        long t0 = System.nanoTime();
        PackageFetchException e = catchThrowableOfType(PackageFetchException.class,
                () -> packages.prepare(packages.check(language, List.of(name))));
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("within the fetch bound").isLessThan(BOUND);
        return e;
    }

    private static void assertOneLineNaming(PackageFetchException e, String url, String setting, String why) {
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).doesNotContain("\n").contains(url, setting, why)
                .doesNotContain("Retry", "urllib3", "object at 0x", "Traceback", "HTTPConnectionPool", "npm error", "FetchError")
                .hasSizeLessThan(400);
    }

    @Test
    void pip_against_a_closed_port_says_the_index_refused_and_which_setting_points_elsewhere() throws IOException {
        String url = "http://127.0.0.1:" + closedPort() + "/simple";
        PackageFetchException e = fetch(Language.PYTHON, "humanize", url);
        assertOneLineNaming(e, url, "CODEINTERP_PYTHON_INDEX_URL", "connection refused");
        assertThat(e.getMessage()).startsWith("the Python package index " + url + " cannot be reached from this server");
    }

    @Test
    void pip_against_an_index_that_never_answers_gives_up_in_one_request_timeout() throws IOException {
        String url = "http://127.0.0.1:" + silentPort() + "/simple";
        assertOneLineNaming(fetch(Language.PYTHON, "humanize", url), url, "CODEINTERP_PYTHON_INDEX_URL", "no answer in time");
    }

    @Test
    void pip_against_a_name_that_does_not_resolve_says_so() {
        String url = "https://codeinterp-no-such-index.invalid/simple";
        assertOneLineNaming(fetch(Language.PYTHON, "humanize", url), url, "CODEINTERP_PYTHON_INDEX_URL", "does not resolve");
    }

    @Test
    void npm_against_a_closed_port_or_a_silent_one_names_the_registry_in_one_line() throws IOException {
        String refused = "http://127.0.0.1:" + closedPort() + "/";
        assertOneLineNaming(fetch(Language.JAVASCRIPT, "left-pad", refused), refused, "CODEINTERP_NPM_REGISTRY", "connection refused");
        String quiet = "http://127.0.0.1:" + silentPort() + "/";
        assertOneLineNaming(fetch(Language.JAVASCRIPT, "left-pad", quiet), quiet, "CODEINTERP_NPM_REGISTRY", "no answer in time");
    }
}
