package dev.codeinterp.server.session;

/**
 * The store cannot take a session's events right now (its database is down or unreachable): nothing
 * is run that could not be kept. The API answers 503 with Retry-After; it usually passes in seconds.
 */
public final class HistoryUnavailableException extends RuntimeException {
    public static final int RETRY_AFTER_S = 5;

    HistoryUnavailableException(Throwable cause) {
        super("the conversation cannot be stored right now (" + cause.getMessage() + "); nothing was run, try again shortly", cause);
    }
}
