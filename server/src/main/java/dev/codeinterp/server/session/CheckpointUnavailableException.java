package dev.codeinterp.server.session;

/** Suspend or fork asked for where sandboxes cannot be checkpointed; the message says why (409). */
public final class CheckpointUnavailableException extends RuntimeException {
    public CheckpointUnavailableException(String why) {
        super(why);
    }
}
