package dev.codeinterp.server.store;

/**
 * The database refused a write (a key, a constraint, a check its statements make): it was rolled back
 * and nothing of it is stored, unlike a write whose connection was lost on the way, which may have been.
 */
public final class WriteRefusedException extends StoreException {
    public WriteRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
