package dev.codeinterp.model.rules;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;

/**
 * Which file names may enter a session's workspace: one plain path segment. Anything that could
 * climb out (separators and their look-alikes, "..", NUL), confuse a terminal or a reader (control,
 * bidi and invisible characters) or collide with our own temporary files is refused with a message
 * that says why. Names are compared in NFKC form, so fullwidth or compatibility look-alikes of
 * dots and slashes are caught as what they look like.
 *
 * <p>The local runtime's JavaScript mirrors this rule; {@code rules/workspace-names.json} in
 * shared-model's test resources is the table of cases both copies must answer alike.
 */
public final class WorkspaceNames {
    public static final int MAX_NAME_BYTES = 255;
    /** Prefix of the server's own in-flight uploads; never a user's name. */
    public static final String TEMP_PREFIX = ".codeinterp-upload-";
    /** Characters that render as a slash or backslash without being one (NFKC leaves them alone). */
    private static final String SLASH_LOOKALIKES = "\u2044\u2215\u29F8\u29F9\u2216\u29F5\u29F6\u29F7\uFE68\u3033\u3035";

    private WorkspaceNames() {
    }

    /** The name, in NFC, if it is acceptable; otherwise {@link IllegalArgumentException} saying why. */
    public static String check(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a file name is required");
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("file name longer than " + MAX_NAME_BYTES + " bytes");
        }
        String folded = Normalizer.normalize(name, Normalizer.Form.NFKC);
        if (folded.equals(".") || folded.equals("..") || folded.isBlank()) {
            throw new IllegalArgumentException("'" + name + "' is not a file name");
        }
        for (int i = 0; i < name.length(); ) {
            int c = name.codePointAt(i);
            i += Character.charCount(c);
            if (c == '/' || c == '\\') {
                throw new IllegalArgumentException("file names may not contain path separators");
            }
            if (SLASH_LOOKALIKES.indexOf(c) >= 0) {
                throw new IllegalArgumentException("file names may not contain characters that look like path separators");
            }
            int type = Character.getType(c);
            if (type == Character.CONTROL) {
                throw new IllegalArgumentException("file names may not contain control characters");
            }
            if (type == Character.FORMAT || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR) {
                throw new IllegalArgumentException("file names may not contain invisible or text-direction characters");
            }
            if (type == Character.SURROGATE || type == Character.PRIVATE_USE || type == Character.UNASSIGNED) {
                throw new IllegalArgumentException("file names may not contain unassigned or private-use characters");
            }
        }
        for (int i = 0; i < folded.length(); i++) {
            char c = folded.charAt(i);
            if (c == '/' || c == '\\') {
                throw new IllegalArgumentException("file names may not contain characters that look like path separators");
            }
        }
        if (folded.startsWith("..")) {
            throw new IllegalArgumentException("file names may not start with '..'");
        }
        // on the folded form, so a no-break or ideographic space counts as the space it looks like
        if (!folded.equals(folded.strip())) {
            throw new IllegalArgumentException("file names may not start or end with spaces");
        }
        if (name.startsWith(TEMP_PREFIX)) {
            throw new IllegalArgumentException("names starting with " + TEMP_PREFIX + " are reserved");
        }
        return Normalizer.normalize(name, Normalizer.Form.NFC);
    }
}
