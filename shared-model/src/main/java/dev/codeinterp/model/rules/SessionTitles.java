package dev.codeinterp.model.rules;

/**
 * What a conversation's title may hold, kept alike by the server (a server session's title) and the
 * browser (a local one's): one line of plain text of at most {@link #MAX_CODE_POINTS} code points.
 * Control characters, line and paragraph separators and invisible or direction-changing format
 * characters become spaces; runs of white space become one space; the ends are trimmed; a longer
 * title is cut at a code-point boundary (never inside a surrogate pair), and a lone surrogate
 * becomes U+FFFD. Markup is text: {@code <b>x</b>} stays exactly that, to be shown as text.
 */
public final class SessionTitles {
    public static final int MAX_CODE_POINTS = 200;

    private SessionTitles() {
    }

    /** The title as kept, or null when nothing is left of it (an empty title clears it). */
    public static String clean(String title) {
        if (title == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(Math.min(title.length(), MAX_CODE_POINTS * 2));
        int kept = 0;
        boolean space = true; // drops leading white space, and collapses runs
        for (int i = 0; i < title.length() && kept < MAX_CODE_POINTS; ) {
            int c = title.codePointAt(i);
            i += Character.charCount(c);
            if (Character.isSurrogate((char) c) && Character.charCount(c) == 1) {
                c = 0xFFFD;
            }
            if (blank(c)) {
                if (!space) {
                    out.append(' ');
                    kept++;
                    space = true;
                }
                continue;
            }
            out.appendCodePoint(c);
            kept++;
            space = false;
        }
        int end = out.length();
        while (end > 0 && out.charAt(end - 1) == ' ') {
            end--;
        }
        return end == 0 ? null : out.substring(0, end);
    }

    /** White space, controls, separators and invisible format characters: each shown as (at most) one space. */
    private static boolean blank(int c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || c < 0x20 || (c >= 0x7F && c <= 0x9F)
                || (c >= 0x200B && c <= 0x200F) || (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x2069)
                || c == 0xFEFF || c == 0x00AD || c == 0x061C || c == 0x180E;
    }
}
