package dev.codeinterp.server.api;

import dev.codeinterp.server.config.Settings;
import io.javalin.config.JavalinConfig;

/** Serves local mode: the Pyodide distribution, the sandboxed runtime page and the wheelhouse. */
final class LocalRuntimeAssets {
    private LocalRuntimeAssets() {
    }

    static void configure(JavalinConfig config, Settings settings) {
        // filled in by the local-mode work (issue 4)
    }
}
