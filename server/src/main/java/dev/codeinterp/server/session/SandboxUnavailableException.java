package dev.codeinterp.server.session;

import dev.codeinterp.server.sandbox.SandboxException;

import java.util.function.Supplier;

/**
 * No sandbox could be had for what was asked (the engine down or restarting, a checkpoint that
 * would not write or restore), said as the sandbox layer said it: what callers above the session
 * layer see of a {@link SandboxException}, so they need not reach the sandbox layer to tell it apart.
 */
public final class SandboxUnavailableException extends RuntimeException {
    public SandboxUnavailableException(SandboxException cause) {
        super(cause.getMessage(), cause);
    }

    /** {@code call}'s answer; a {@link SandboxException} it throws comes out as this exception. */
    public static <T> T around(Supplier<T> call) {
        try {
            return call.get();
        } catch (SandboxException e) {
            throw new SandboxUnavailableException(e);
        }
    }

    public static void around(Runnable call) {
        around(() -> {
            call.run();
            return null;
        });
    }
}
