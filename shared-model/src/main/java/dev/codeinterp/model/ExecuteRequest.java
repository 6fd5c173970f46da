package dev.codeinterp.model;

import java.util.List;

/** Body of {@code POST /api/v1/execute} and {@code POST /api/v1/sessions/{id}/execute}. */
public record ExecuteRequest(String code, String language, Double timeoutSeconds, List<InputFile> files, String stdin) {

    /** Without {@code stdin}: the cell's {@code input()} fails at once, as nobody can answer it. */
    public ExecuteRequest(String code, String language, Double timeoutSeconds, List<InputFile> files) {
        this(code, language, timeoutSeconds, files, null);
    }

    /** A file to place in the workspace before the code runs. */
    public record InputFile(String name, String contentBase64) {
    }
}
