package dev.codeinterp.model.runner;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Language;

import java.util.List;

/** One line the runner wrote: its readiness, an event of a cell, its complaint about our input, or a cell's {@code %pip install}. */
public sealed interface RunnerMessage permits RunnerMessage.Ready, RunnerMessage.CellEvent, RunnerMessage.ProtocolError,
        RunnerMessage.InstallRequest, RunnerMessage.Replay {

    record Ready(String python, long pid) implements RunnerMessage {
    }

    record CellEvent(String executionId, Event event) implements RunnerMessage {
    }

    record ProtocolError(String message) implements RunnerMessage {
    }

    /**
     * The answer to a {@code replay} command: the runner's lines from number {@code from} follow again;
     * {@code lost} lines before them, which the server never stored, are gone (the runner's journal
     * holds a bounded amount). The line itself is not numbered.
     */
    record Replay(long from, long lost) implements RunnerMessage {
    }

    /** The running cell asks for packages ({@code %pip install}); the server answers {@code install} or {@code install_refused}. */
    record InstallRequest(String executionId, Language language, List<String> packages) implements RunnerMessage {
        public InstallRequest {
            packages = List.copyOf(packages);
        }
    }
}
