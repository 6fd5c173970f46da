package dev.codeinterp.server.cluster;

import dev.codeinterp.server.store.TestStores;
import dev.codeinterp.server.testing.TestApp;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Two real servers, nodes n1 and n2, on one PostgreSQL database (a cluster shares nothing else, and
 * SQLite's file is one server's): each with its own data directory under {@code dir}, both with
 * {@code settings}, under runc unless said otherwise.
 */
final class TwoNodes implements AutoCloseable {
    final TestApp n1;
    final TestApp n2;
    private final Path dir;

    TwoNodes(Path dir, Map<String, String> settings) {
        this(dir, "runc", settings);
    }

    TwoNodes(Path dir, String runtime, Map<String, String> settings) {
        this(dir, runtime, settings, Map.of());
    }

    /** {@code n2Only}: settings n2 has on top of {@code settings} (nodes configured differently). */
    TwoNodes(Path dir, String runtime, Map<String, String> settings, Map<String, String> n2Only) {
        this.dir = dir;
        this.n1 = TestApp.start(runtime, with(settings, Map.of("NODE_ID", "n1")), dir.resolve("n1"));
        Map<String, String> sameStore = with(with(settings, n2Only), Map.of("NODE_ID", "n2"));
        sameStore.putAll(TestStores.environment(dir.resolve("n1")));
        TestApp second;
        try {
            second = TestApp.start(runtime, sameStore, dir.resolve("n2"));
        } catch (RuntimeException e) {
            n1.close();
            throw e;
        }
        this.n2 = second;
    }

    /** Two nodes under {@code runtime}, or the test is skipped: a cluster's nodes share a PostgreSQL store. */
    static TwoNodes onPostgres(String name, String runtime, Map<String, String> settings) throws java.io.IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(TestStores.postgres(), "a cluster's nodes share a PostgreSQL store");
        return new TwoNodes(java.nio.file.Files.createTempDirectory(name), runtime, settings);
    }

    private static Map<String, String> with(Map<String, String> base, Map<String, String> more) {
        Map<String, String> m = new HashMap<>(base);
        m.putAll(more);
        return m;
    }

    @Override
    public void close() {
        try {
            n2.close();
        } finally {
            n1.close();
            TestApp.discardWorkspaces(dir.resolve("n1"));
            TestApp.discardWorkspaces(dir.resolve("n2"));
        }
    }
}
