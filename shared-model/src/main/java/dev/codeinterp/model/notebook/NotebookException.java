package dev.codeinterp.model.notebook;

/** A file that cannot be imported as a notebook; the message says why in words for the user. */
public final class NotebookException extends RuntimeException {
    public NotebookException(String message) {
        super(message);
    }
}
