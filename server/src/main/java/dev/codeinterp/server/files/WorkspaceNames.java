package dev.codeinterp.server.files;

import java.nio.charset.StandardCharsets;

/**
 * Which file names may enter a session's workspace: one plain path segment. Anything that could
 * climb out (separators, "..", NUL) or confuse a terminal (control characters) is refused with a
 * message that says why.
 */
public final class WorkspaceNames {
    public static final int MAX_NAME_BYTES = 255;

    private WorkspaceNames() {
    }

    public static String check(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a file name is required");
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("file name longer than " + MAX_NAME_BYTES + " bytes");
        }
        if (name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("'" + name + "' is not a file name");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '\\') {
                throw new IllegalArgumentException("file names may not contain path separators");
            }
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
                throw new IllegalArgumentException("file names may not contain control characters");
            }
        }
        return name;
    }
}
