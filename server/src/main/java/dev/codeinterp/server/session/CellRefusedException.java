package dev.codeinterp.server.session;

/** A cell was refused as it was asked (too large, unknown language, a bad timeout); nothing was queued or run. */
public final class CellRefusedException extends IllegalArgumentException {
    public CellRefusedException(String message) {
        super(message);
    }
}
