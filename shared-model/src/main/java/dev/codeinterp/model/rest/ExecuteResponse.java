package dev.codeinterp.model.rest;

import dev.codeinterp.model.Status;

import java.util.List;
import java.util.Map;

/** The collected result of one execution, for callers that want one answer instead of a stream. */
public record ExecuteResponse(boolean success, Status status, String stdout, String stderr,
                              List<Map<String, Object>> results, List<Image> images, ErrorInfo error,
                              double executionTime, List<ReturnedFile> files, String restarted) {

    /**
     * {@code restarted}: why the session's interpreter was replaced before or while this cell ran (its
     * variables are gone), or null when it kept its state.
     */
    public ExecuteResponse(boolean success, Status status, String stdout, String stderr, List<Map<String, Object>> results,
                           List<Image> images, ErrorInfo error, double executionTime, List<ReturnedFile> files) {
        this(success, status, stdout, stderr, results, images, error, executionTime, files, null);
    }

    /**
     * A file the code wrote (one-shot execute). {@code contentBase64} is null when the file did not
     * fit the response's size bound; {@code omitted} then says why.
     */
    public record ReturnedFile(String name, long size, String contentBase64, String omitted) {
    }

    public ExecuteResponse withFiles(List<ReturnedFile> returned) {
        return new ExecuteResponse(success, status, stdout, stderr, results, images, error, executionTime, List.copyOf(returned), restarted);
    }

    public record Image(String type, String base64) {
    }

    public record ErrorInfo(String name, String value, String traceback) {
    }
}
