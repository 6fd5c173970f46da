package dev.codeinterp.web.view;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;

import java.util.List;
import java.util.Map;

/**
 * Which MIME type of a bundle the UI shows: the richest one it can render, in the order Jupyter's
 * notebook uses (Plotly's extension first, as in JupyterLab; JSON's tree before plain text). The
 * bundle itself keeps every type (the REST response and the history are untouched).
 */
public final class MimePrecedence {
    static final String PLOTLY = "application/vnd.plotly.v1+json";
    static final String HTML = "text/html";
    static final String MARKDOWN = "text/markdown";
    static final String LATEX = "text/latex";
    static final String SVG = "image/svg+xml";
    static final String PNG = "image/png";
    static final String JPEG = "image/jpeg";
    static final String GIF = "image/gif";
    static final String JSON = "application/json";
    static final String PLAIN = "text/plain";

    /** Richest first. */
    static final List<String> ORDER = List.of(PLOTLY, HTML, MARKDOWN, LATEX, SVG, PNG, JPEG, GIF, JSON, PLAIN);

    private MimePrecedence() {
    }

    /** The type to show, or null if the bundle has none the UI renders. Text types must be strings. */
    static String pick(Map<String, Object> data) {
        for (String type : ORDER) {
            Object value = data.get(type);
            boolean usable = switch (type) {
                case PLOTLY -> structured(value) instanceof Map;
                case JSON -> value != null;
                default -> value instanceof String;
            };
            if (usable) {
                return type;
            }
        }
        return null;
    }

    /**
     * A JSON type's value as JSON: the runner sends these as JSON text (as nbformat stores them
     * when written by some tools), other producers as the value itself. Unparseable text stays text.
     */
    static Object structured(Object value) {
        if (value instanceof String text) {
            try {
                return Json.parse(text);
            } catch (JsonException e) {
                return text;
            }
        }
        return value;
    }
}
