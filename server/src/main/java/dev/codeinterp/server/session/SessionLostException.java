package dev.codeinterp.server.session;

/** The session's node was lost with its sandbox: history stays readable, the session cannot run again (410). */
public final class SessionLostException extends RuntimeException {
    public SessionLostException(String why) {
        super(why);
    }
}
