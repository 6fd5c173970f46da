package dev.codeinterp.model;

import java.util.List;

/**
 * Body of {@code POST /api/v1/execute} and {@code POST /api/v1/sessions/{id}/execute}. {@code packages}
 * (names to install before the code runs, allowlisted; docs/protocol.md) is never null.
 */
public record ExecuteRequest(String code, String language, Double timeoutSeconds, List<InputFile> files, List<String> packages) {

    public ExecuteRequest(String code, String language, Double timeoutSeconds, List<InputFile> files) {
        this(code, language, timeoutSeconds, files, List.of());
    }

    /** A file to place in the workspace before the code runs. */
    public record InputFile(String name, String contentBase64) {
    }
}
