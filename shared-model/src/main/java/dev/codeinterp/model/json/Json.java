package dev.codeinterp.model.json;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The one JSON reader and writer of the project. Values are plain Java: {@code Map<String,Object>}
 * (insertion-ordered), {@code List<Object>}, {@code String}, {@code Long}, {@code Double},
 * {@code Boolean} and {@code null}. Hand-written because Jackson and Gson do not compile under
 * TeaVM; bounded because every input can be hostile.
 */
public final class Json {
    /** More nested arrays and objects than this are refused rather than risking a stack overflow. */
    public static final int MAX_DEPTH = 64;

    private Json() {
    }

    /**
     * Parses one JSON value, strictly by RFC 8259 (see {@link JsonReader} for the cases the RFC leaves
     * open); anything malformed, too deep or trailing raises {@link JsonException}.
     */
    public static Object parse(String text) {
        return JsonReader.read(text);
    }

    /** Parses text that must be a JSON object. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) {
        Object value = parse(text);
        if (!(value instanceof Map)) {
            throw new JsonException("expected a JSON object");
        }
        return (Map<String, Object>) value;
    }

    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    public static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            writeString((String) value, out);
        } else if (value instanceof Boolean) {
            out.append(((Boolean) value).booleanValue() ? "true" : "false");
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                out.append("null");
            } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                out.append((long) d);
            } else {
                out.append(d);
            }
        } else if (value instanceof Number) {
            out.append(((Number) value).longValue());
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : ((Map<String, Object>) value).entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                writeString(e.getKey(), out);
                out.append(':');
                write(e.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List) {
            out.append('[');
            Iterator<Object> it = ((List<Object>) value).iterator();
            while (it.hasNext()) {
                write(it.next(), out);
                if (it.hasNext()) {
                    out.append(',');
                }
            }
            out.append(']');
        } else {
            throw new JsonException("cannot write " + value.getClass().getName() + " as JSON");
        }
    }

    private static void writeString(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                default:
                    // Control characters and the JS line separators are escaped so a frame is one line;
                    // a lone surrogate is escaped so the text stays valid UTF-8 (a reader decides what it means)
                    if (JsonChars.isHighSurrogate(c) && i + 1 < s.length() && JsonChars.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (c < 0x20 || c == '\u2028' || c == '\u2029' || JsonChars.isHighSurrogate(c) || JsonChars.isLowSurrogate(c)) {
                        out.append("\\u");
                        String hex = Integer.toHexString(c);
                        for (int k = hex.length(); k < 4; k++) {
                            out.append('0');
                        }
                        out.append(hex);
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }
}
