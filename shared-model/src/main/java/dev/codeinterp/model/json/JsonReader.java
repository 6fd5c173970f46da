package dev.codeinterp.model.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict RFC 8259 reader. Where the RFC leaves the outcome open, it decides:
 * <ul>
 *   <li>of a key given twice in one object the last value counts, as in the browser's JSON.parse and
 *       Python's json: every part of the system then reads the same message;</li>
 *   <li>a lone surrogate, escaped or raw, becomes U+FFFD (the runner escapes the ones Python printed, and
 *       the rest of the text must survive; a lone surrogate cannot be stored or sent as UTF-8 anyway);</li>
 *   <li>a number too large for a double is refused; a tiny one reads as 0; an integer of 19 or more
 *       characters reads as a double;</li>
 *   <li>a byte order mark is refused (it is not whitespace);</li>
 *   <li>more than {@link Json#MAX_DEPTH} nested arrays and objects are refused before the stack is at risk.</li>
 * </ul>
 * Every refusal is a {@link JsonException} whose message says what and where.
 */
final class JsonReader {
    private static final char REPLACEMENT = '\uFFFD';

    private final String text;
    private int pos;
    private int depth;

    private JsonReader(String text) {
        this.text = text;
    }

    static Object read(String text) {
        if (text == null) {
            throw new JsonException("no JSON text");
        }
        JsonReader reader = new JsonReader(text);
        reader.skipWhitespace();
        if (reader.pos == text.length()) {
            throw reader.error(text.isEmpty() ? "empty input" : "only whitespace, no JSON value");
        }
        Object value = reader.readValue();
        reader.skipWhitespace();
        if (reader.pos != text.length()) {
            throw reader.error("unexpected " + JsonChars.describe(text.charAt(reader.pos)) + " after the JSON value");
        }
        return value;
    }

    private Object readValue() {
        char c = peek();
        switch (c) {
            case '{': return readObject();
            case '[': return readArray();
            case '"': return readString();
            case 't': expectWord("true"); return Boolean.TRUE;
            case 'f': expectWord("false"); return Boolean.FALSE;
            case 'n': expectWord("null"); return null;
            case '\uFEFF': throw error("a byte order mark is not JSON");
            default:
                if (c == '-' || JsonChars.isDigit(c)) {
                    return readNumber();
                }
                throw error("unexpected " + JsonChars.describe(c));
        }
    }

    private Map<String, Object> readObject() {
        enter();
        Map<String, Object> map = new LinkedHashMap<>();
        pos++;
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            depth--;
            return map;
        }
        while (true) {
            if (peek() != '"') {
                throw error("expected a string key, found " + JsonChars.describe(peek()));
            }
            String key = readString();
            skipWhitespace();
            if (peek() != ':') {
                throw error("expected ':' after a key, found " + JsonChars.describe(peek()));
            }
            pos++;
            skipWhitespace();
            map.put(key, readValue());
            skipWhitespace();
            char c = peek();
            if (c == '}') {
                pos++;
                depth--;
                return map;
            }
            if (c != ',') {
                throw error("expected ',' or '}', found " + JsonChars.describe(c));
            }
            pos++;
            skipWhitespace();
        }
    }

    private List<Object> readArray() {
        enter();
        List<Object> list = new ArrayList<>();
        pos++;
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            depth--;
            return list;
        }
        while (true) {
            list.add(readValue());
            skipWhitespace();
            char c = peek();
            if (c == ']') {
                pos++;
                depth--;
                return list;
            }
            if (c != ',') {
                throw error("expected ',' or ']', found " + JsonChars.describe(c));
            }
            pos++;
            skipWhitespace();
        }
    }

    private void enter() {
        if (++depth > Json.MAX_DEPTH) {
            throw error("nesting deeper than " + Json.MAX_DEPTH);
        }
    }

    private String readString() {
        pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos);
            if (c == '"') {
                pos++;
                return sb.toString();
            }
            if (c == '\\') {
                readEscape(sb);
            } else if (c < 0x20) {
                throw error("unescaped control character " + JsonChars.describe(c) + " in a string");
            } else if (JsonChars.isHighSurrogate(c) && pos + 1 < text.length() && JsonChars.isLowSurrogate(text.charAt(pos + 1))) {
                sb.append(c).append(text.charAt(pos + 1));
                pos += 2;
            } else {
                sb.append(JsonChars.isHighSurrogate(c) || JsonChars.isLowSurrogate(c) ? REPLACEMENT : c);
                pos++;
            }
        }
    }

    /** Reads the escape at {@code pos} (the backslash) into {@code sb}. */
    private void readEscape(StringBuilder sb) {
        pos++;
        if (pos >= text.length()) {
            throw error("unterminated escape");
        }
        char e = text.charAt(pos);
        switch (e) {
            case '"': sb.append('"'); break;
            case '\\': sb.append('\\'); break;
            case '/': sb.append('/'); break;
            case 'b': sb.append('\b'); break;
            case 'f': sb.append('\f'); break;
            case 'n': sb.append('\n'); break;
            case 'r': sb.append('\r'); break;
            case 't': sb.append('\t'); break;
            case 'u': {
                pos++;
                char unit = hex4();
                if (JsonChars.isHighSurrogate(unit) && text.startsWith("\\u", pos) && JsonChars.isLowSurrogate(peekHex4(pos + 2))) {
                    pos += 2;
                    sb.append(unit).append(hex4());
                } else {
                    sb.append(JsonChars.isHighSurrogate(unit) || JsonChars.isLowSurrogate(unit) ? REPLACEMENT : unit);
                }
                return;
            }
            default:
                throw error(e > 0x20 && e < 0x7f ? "invalid escape '\\" + e + "'" : "invalid escape: '\\' before " + JsonChars.describe(e));
        }
        pos++;
    }

    /** Four hex digits at {@code pos} as one UTF-16 unit, consumed. */
    private char hex4() {
        int unit = peekHex4(pos);
        if (unit < 0) {
            throw error("\\u needs four hex digits");
        }
        pos += 4;
        return (char) unit;
    }

    /** Four ASCII hex digits at {@code at} as a number, or -1 when there are not four. */
    private int peekHex4(int at) {
        if (at + 4 > text.length()) {
            return -1;
        }
        int unit = 0;
        for (int i = at; i < at + 4; i++) {
            int digit = JsonChars.hexDigit(text.charAt(i));
            if (digit < 0) {
                return -1;
            }
            unit = unit * 16 + digit;
        }
        return unit;
    }

    /** {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}, nothing looser. */
    private Object readNumber() {
        int start = pos;
        boolean integral = true;
        if (text.charAt(pos) == '-') {
            pos++;
        }
        if (pos < text.length() && text.charAt(pos) == '0') {
            pos++;
            if (pos < text.length() && JsonChars.isDigit(text.charAt(pos))) {
                throw error("a number may not have a leading zero");
            }
        } else {
            digits("a number needs a digit");
        }
        if (pos < text.length() && text.charAt(pos) == '.') {
            integral = false;
            pos++;
            digits("a number needs a digit after '.'");
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            integral = false;
            pos++;
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                pos++;
            }
            digits("a number needs a digit in its exponent");
        }
        String literal = text.substring(start, pos);
        if (integral && literal.length() < 19) {
            return Long.parseLong(literal);
        }
        double value = Double.parseDouble(literal);
        if (Double.isInfinite(value)) {
            pos = start;
            throw error("number out of range");
        }
        return value;
    }

    private void digits(String otherwise) {
        if (pos >= text.length() || !JsonChars.isDigit(text.charAt(pos))) {
            throw error(otherwise);
        }
        while (pos < text.length() && JsonChars.isDigit(text.charAt(pos))) {
            pos++;
        }
    }

    private void expectWord(String word) {
        if (!text.startsWith(word, pos)) {
            throw error("expected '" + word + "'");
        }
        pos += word.length();
    }

    private char peek() {
        if (pos >= text.length()) {
            throw error("unexpected end of input");
        }
        return text.charAt(pos);
    }

    private void skipWhitespace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
                pos++;
            } else {
                return;
            }
        }
    }

    private JsonException error(String message) {
        return new JsonException(message + " at offset " + pos);
    }
}
