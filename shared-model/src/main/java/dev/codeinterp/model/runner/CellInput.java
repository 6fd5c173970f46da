package dev.codeinterp.model.runner;

import dev.codeinterp.model.Event;

/**
 * How a cell's {@code input()} reads: the lines of {@code stdin} in order (then EOF), or with
 * {@code interactive} by asking the person ({@link Event.InputRequest}), or, with neither, not at all
 * (it fails at once). A REST caller can only send lines; a person at the UI can answer.
 */
public record CellInput(String stdin, boolean interactive) {
    public static final CellInput NONE = new CellInput(null, false);
    public static final CellInput ASK = new CellInput(null, true);

    /** The lines a request sent, or {@link #NONE} when it sent none. */
    public static CellInput lines(String stdin) {
        return stdin == null ? NONE : new CellInput(stdin, false);
    }
}
