package dev.codeinterp.server.sandbox;

/**
 * The checkpoint itself cannot be restored: missing, or refused by the runtime (damaged, from
 * another version). Unlike other sandbox failures (a busy or absent engine), trying again will not
 * help, so the variables it held are given up.
 */
public final class CheckpointRefusedException extends SandboxException {
    public CheckpointRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
