package dev.codeinterp.server.session;

import dev.codeinterp.model.Limit;

/** An admission limit refused a request; nothing was created or queued. Says which limit and when to come back. */
public final class LimitExceededException extends RuntimeException {
    private final Limit limit;
    private final int retryAfterSeconds;

    public LimitExceededException(Limit limit, int retryAfterSeconds, String message) {
        super(message);
        this.limit = limit;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public Limit limit() {
        return limit;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
