package dev.codeinterp.server.files;

/** A workspace operation that cannot be done, with the reason a user can act on. */
public final class WorkspaceException extends RuntimeException {
    public enum Reason { NOT_FOUND, TOO_LARGE, FULL, CONFLICT, UNAVAILABLE }

    private final Reason reason;

    public WorkspaceException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public WorkspaceException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
