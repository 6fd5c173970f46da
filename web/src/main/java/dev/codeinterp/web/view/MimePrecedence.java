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

    /** The type a bundle is shown as, with its value (JSON types parsed). */
    record Chosen(String type, Object value) {
    }

    /** The type to show and its value, or null if the bundle has none the UI renders. Text types must be strings. */
    static Chosen pick(Map<String, Object> data) {
        for (String type : ORDER) {
            Object value = data.get(type);
            if (value == null) {
                continue;
            }
            switch (type) {
                case PLOTLY: {
                    Object figure = structured(value);
                    if (figure instanceof Map) {
                        return new Chosen(type, figure);
                    }
                    break;
                }
                case JSON:
                    return new Chosen(type, structured(value));
                default:
                    if (value instanceof String) {
                        return new Chosen(type, value);
                    }
            }
        }
        return null;
    }

    /**
     * A JSON type's value as JSON: the runner sends these as JSON text, other producers (an imported
     * notebook's outputs) as the value itself. Unparseable text stays text.
     */
    private static Object structured(Object value) {
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
