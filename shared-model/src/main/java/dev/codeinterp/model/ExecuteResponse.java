package dev.codeinterp.model;

import java.util.List;
import java.util.Map;

/** The collected result of one execution, for callers that want one answer instead of a stream. */
public record ExecuteResponse(boolean success, Status status, String stdout, String stderr,
                              List<Map<String, Object>> results, List<Image> images, ErrorInfo error,
                              double executionTime) {

    public record Image(String type, String base64) {
    }

    public record ErrorInfo(String name, String value, String traceback) {
    }
}
