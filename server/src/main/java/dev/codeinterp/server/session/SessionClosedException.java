package dev.codeinterp.server.session;

public final class SessionClosedException extends RuntimeException {
    public SessionClosedException() {
        super("the session is closed");
    }
}
