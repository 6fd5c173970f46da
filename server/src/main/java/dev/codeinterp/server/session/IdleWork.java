package dev.codeinterp.server.session;

import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.sandbox.Sandbox;

/**
 * What is done with a session once no cell waits or runs, on its worker's thread: its sandbox (null
 * when none runs) and workspace (null before the first sandbox) written to disk (a suspension, a
 * move) or copied (a fork). What it answers goes back to the caller that asked for it.
 */
@FunctionalInterface
public interface IdleWork<T> {
    T withIdle(Sandbox sandbox, Workspace workspace);
}
