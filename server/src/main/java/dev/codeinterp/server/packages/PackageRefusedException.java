package dev.codeinterp.server.packages;

/** A cell's {@code packages} asked for something that may not be installed; the cell does not run. */
public final class PackageRefusedException extends IllegalArgumentException {
    public PackageRefusedException(String message) {
        super(message);
    }
}
