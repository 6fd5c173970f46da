package dev.codeinterp.server.sandbox;

import dev.codeinterp.model.runner.RunnerMessage;

import java.util.List;

/**
 * What one read of a runner's output held, in order, and how many of the runner's lines have been
 * read once these are: the number the session stores with their events, so that a server that
 * restarts asks the runner for exactly the lines after it (see {@link Sandbox#acknowledge}).
 */
public record RunnerOutput(List<RunnerMessage> messages, long linesThrough) {
    public RunnerOutput {
        messages = List.copyOf(messages);
    }
}
