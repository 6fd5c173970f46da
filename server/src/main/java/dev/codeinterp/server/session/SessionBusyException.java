package dev.codeinterp.server.session;

/** Asked to suspend or fork a session while a cell of it waits or runs: it can be done once the session is idle. */
public final class SessionBusyException extends RuntimeException {
    public SessionBusyException() {
        super("a cell of this session is waiting or running; suspend or fork it once it is idle (interrupt the cell, or wait for it)");
    }
}
