package dev.codeinterp.model.rest;

/**
 * The answer of {@code GET /api/v1/sessions/{id}}: the session's runtime, whether its interpreter
 * runs or is suspended to disk ({@link #RUNNING}, {@link #SUSPENDED}), and when it was created and
 * last used, in milliseconds since the epoch. Asking does not resume it.
 */
public record SessionState(String id, String runtime, String state, long created, long lastActive) {
    public static final String RUNNING = "running";
    public static final String SUSPENDED = "suspended";
}
