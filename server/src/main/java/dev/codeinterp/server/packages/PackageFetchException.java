package dev.codeinterp.server.packages;

/** Fetching a cell's packages failed (the index is unreachable, no such version, a tool error); the cell does not run. */
public final class PackageFetchException extends RuntimeException {
    public PackageFetchException(String message) {
        super(message);
    }
}
