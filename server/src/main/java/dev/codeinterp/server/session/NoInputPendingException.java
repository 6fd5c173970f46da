package dev.codeinterp.server.session;

/** An answer to {@code input()} arrived while no cell of the session was waiting for one. */
public final class NoInputPendingException extends IllegalStateException {
    public NoInputPendingException() {
        super("no input is pending: no running cell is waiting for input()");
    }
}
