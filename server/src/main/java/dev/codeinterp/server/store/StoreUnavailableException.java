package dev.codeinterp.server.store;

/** The database cannot be reached or used at all (address, password, migration): the server cannot start. */
public final class StoreUnavailableException extends StoreException {
    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
