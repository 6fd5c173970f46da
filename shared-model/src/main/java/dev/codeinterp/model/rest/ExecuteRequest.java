package dev.codeinterp.model.rest;

import java.util.List;

/**
 * Body of {@code POST /api/v1/execute} and {@code POST /api/v1/sessions/{id}/execute}. {@code stdin}
 * (or null) feeds the cell's {@code input()}; {@code packages} (names to install before the code runs,
 * allowlisted; docs/protocol.md) is never null.
 */
public record ExecuteRequest(String code, String language, Double timeoutSeconds, List<InputFile> files, String stdin,
                             List<String> packages) {
    public ExecuteRequest {
        packages = packages == null ? List.of() : List.copyOf(packages);
    }

    /** Without {@code stdin}: the cell's {@code input()} fails at once, as nobody can answer it; no packages. */
    public ExecuteRequest(String code, String language, Double timeoutSeconds, List<InputFile> files) {
        this(code, language, timeoutSeconds, files, null, List.of());
    }

    public ExecuteRequest(String code, String language, Double timeoutSeconds, List<InputFile> files, String stdin) {
        this(code, language, timeoutSeconds, files, stdin, List.of());
    }

    public ExecuteRequest(String code, String language, Double timeoutSeconds, List<InputFile> files, List<String> packages) {
        this(code, language, timeoutSeconds, files, null, packages);
    }

    /** A file to place in the workspace before the code runs. */
    public record InputFile(String name, String contentBase64) {
    }
}
