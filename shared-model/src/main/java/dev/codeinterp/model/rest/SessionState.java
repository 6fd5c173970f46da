package dev.codeinterp.model.rest;

/**
 * The answer of {@code GET /api/v1/sessions/{id}} (and of {@code PATCH}, which sets its title): the
 * session's runtime, whether its interpreter runs or is suspended to disk ({@link #RUNNING},
 * {@link #SUSPENDED}) or it was lost with its node ({@link #LOST}: its history stays readable), when
 * it was created and last used, in milliseconds since the epoch, and its title (null until one is
 * set; kept as {@link dev.codeinterp.model.rules.SessionTitles} says). Asking does not resume it.
 */
public record SessionState(String id, String runtime, String state, long created, long lastActive, String title) {
    public static final String RUNNING = "running";
    public static final String SUSPENDED = "suspended";
    public static final String LOST = "lost";

    /** A session with no title set. */
    public SessionState(String id, String runtime, String state, long created, long lastActive) {
        this(id, runtime, state, created, lastActive, null);
    }

    public SessionState withTitle(String newTitle) {
        return new SessionState(id, runtime, state, created, lastActive, newTitle);
    }
}
