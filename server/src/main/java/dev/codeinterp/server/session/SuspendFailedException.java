package dev.codeinterp.server.session;

import dev.codeinterp.server.sandbox.Sandbox;
import dev.codeinterp.server.sandbox.SandboxException;

/**
 * A suspension that could not be written whole (a full disk, most often). Nothing of it is kept;
 * {@link #restored()} is the interpreter brought back from the checkpoint that had already stopped
 * it, or null when the sandbox never stopped (or could not be brought back).
 */
public final class SuspendFailedException extends SandboxException {
    private final transient Sandbox restored;

    public SuspendFailedException(String message, Throwable cause, Sandbox restored) {
        super(message, cause);
        this.restored = restored;
    }

    Sandbox restored() {
        return restored;
    }
}
