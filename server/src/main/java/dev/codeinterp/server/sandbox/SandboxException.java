package dev.codeinterp.server.sandbox;

/** A sandbox could not be created or used. The message says why in words fit for a user. */
public class SandboxException extends RuntimeException {
    public SandboxException(String message) {
        super(message);
    }

    public SandboxException(String message, Throwable cause) {
        super(message, cause);
    }
}
