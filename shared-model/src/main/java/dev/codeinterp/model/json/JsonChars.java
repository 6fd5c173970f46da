package dev.codeinterp.model.json;

/** Character classes of JSON text, ASCII-only where the RFC says so (never {@code Character.digit}). */
final class JsonChars {
    private JsonChars() {
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    static boolean isHighSurrogate(int c) {
        return c >= 0xD800 && c <= 0xDBFF;
    }

    static boolean isLowSurrogate(int c) {
        return c >= 0xDC00 && c <= 0xDFFF;
    }

    /** A character as an error message can show it: printable ASCII quoted, anything else as U+XXXX. */
    static String describe(char c) {
        if (c > 0x20 && c < 0x7f) {
            return "'" + c + "'";
        }
        String hex = Integer.toHexString(c).toUpperCase();
        return "U+" + "0000".substring(hex.length()) + hex;
    }
}
