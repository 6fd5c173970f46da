package dev.codeinterp.server.packages;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The packages tests' shared setup: a real PEP 503 index on the host serving wheels built in the
 * test, an allowlist file of the app's own (as an operator would give it), and a {@link TestApp} on
 * one runtime pointed at both, with its own package cache (its own data dir).
 */
final class PackageIndexApp implements AutoCloseable {
    final LocalPackageIndex index;
    final TestApp app;
    private final Path allowlist;

    private PackageIndexApp(LocalPackageIndex index, Path allowlist, TestApp app) {
        this.index = index;
        this.allowlist = allowlist;
        this.app = app;
    }

    /** Publishes what {@code publish} puts in the index, then starts the app with these allowlist lines. */
    static PackageIndexApp start(String runtime, Consumer<LocalPackageIndex> publish, String... allowlistLines) {
        LocalPackageIndex index = new LocalPackageIndex();
        try {
            publish.accept(index);
            Path allowlist = Files.createTempFile("allowlist", ".txt");
            Files.writeString(allowlist, String.join("\n", allowlistLines) + "\n");
            return new PackageIndexApp(index, allowlist,
                    TestApp.start(runtime, Map.of("PACKAGES_ALLOWLIST", allowlist.toString(), "PYTHON_INDEX_URL", index.url())));
        } catch (IOException e) {
            index.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            index.close();
            throw e;
        }
    }

    /**
     * Python that tries to connect from inside the cell to the internet, to the index on the host and
     * to {@code moreTargets} (Python {@code (host, port)} tuples), printing how each attempt failed.
     */
    String networkProbe(String... moreTargets) {
        StringBuilder targets = new StringBuilder("('1.1.1.1', 80), ('127.0.0.1', " + indexPort() + ")");
        for (String target : moreTargets) {
            targets.append(", ").append(target);
        }
        return """
                import socket
                for host, port in (%s):
                    try:
                        socket.create_connection((host, port), timeout=3).close()
                        print('CONNECTED', host)
                    except OSError as e:
                        print('offline', type(e).__name__)
                """.formatted(targets);
    }

    /** The session's {@code install} events, oldest first. */
    List<JsonObject> installEvents(TestApp.SessionRef s) {
        return app.get("/api/v1/sessions/" + s.id() + "/events", s.token()).json().objectList("events").stream()
                .filter(e -> e.string("type").equals("install")).toList();
    }

    private int indexPort() {
        return Integer.parseInt(index.url().replaceAll(".*:(\\d+)/.*", "$1"));
    }

    @Override
    public void close() throws IOException {
        try {
            app.close();
            index.close();
        } finally {
            Files.deleteIfExists(allowlist);
        }
    }
}
