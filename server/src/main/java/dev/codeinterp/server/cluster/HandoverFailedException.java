package dev.codeinterp.server.cluster;

/** A session could not be handed to another node (unreachable, refused): it stays where it was. */
public final class HandoverFailedException extends RuntimeException {
    HandoverFailedException(String message) {
        super(message);
    }
}
