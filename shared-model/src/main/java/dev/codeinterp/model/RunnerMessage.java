package dev.codeinterp.model;

/** One line the runner wrote: its readiness, an event of a cell, or its complaint about our input. */
public sealed interface RunnerMessage permits RunnerMessage.Ready, RunnerMessage.CellEvent, RunnerMessage.ProtocolError {

    record Ready(String python, long pid) implements RunnerMessage {
    }

    record CellEvent(String executionId, Event event) implements RunnerMessage {
    }

    record ProtocolError(String message) implements RunnerMessage {
    }
}
