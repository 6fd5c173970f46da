package dev.codeinterp.web.conversations;

/**
 * Titles as the list shows them: one line of text, no control characters, bounded. A title may be
 * anything a person or a cell wrote (10 KB, markup, escapes): it is only ever shown as text.
 */
public final class ConversationTitle {
    /** A title taken from a cell or a prompt is cut here. */
    static final int FROM_CODE = 80;
    /** A title a person typed is cut here (the server bounds it too). */
    public static final int MAX = 200;

    private ConversationTitle() {
    }

    /** The first line of the code that says something (a comment's text without its marker), cut to {@link #FROM_CODE}. */
    static String fromCode(String code) {
        for (String line : code.split("\n", 50)) {
            String clean = clean(line.replaceFirst("^\\s*(#+|//+)\\s*", ""));
            if (!clean.isEmpty()) {
                return cut(clean, FROM_CODE);
            }
        }
        return "";
    }

    /** One line of text, cut to {@link #MAX}; "" for null. */
    public static String bounded(String title) {
        return title == null ? "" : cut(clean(title.length() > 4 * MAX ? title.substring(0, 4 * MAX) : title), MAX);
    }

    /** Control and format characters become spaces, runs of spaces one, ends trimmed. */
    private static String clean(String text) {
        StringBuilder out = new StringBuilder(text.length());
        boolean space = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean blank = Character.isWhitespace(c) || Character.isISOControl(c) || (c >= '\u200b' && c <= '\u200f')
                    || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069') || c == '\ufeff';
            if (blank) {
                space = out.length() > 0;
            } else {
                if (space) {
                    out.append(' ');
                    space = false;
                }
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String cut(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = max - 1;
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end) + "…";
    }
}
