package dev.codeinterp.server.sandbox;

import dev.codeinterp.server.files.Workspace;

/**
 * Where interpreters live. Docker today; the interface is what the session layer sees, so a
 * Kubernetes or Firecracker backend can come later without touching sessions.
 */
public interface SandboxBackend extends AutoCloseable {

    /**
     * Creates, starts and waits for a sandbox whose runner said {@code ready}, with
     * {@code workspace}'s host directory as its {@code /workspace}.
     */
    Sandbox start(Workspace workspace) throws SandboxException;

    /**
     * A sandbox an earlier process of this server detached, still running: attached again, with the
     * runner asked for every line after the first {@code linesStored}. Fails with
     * {@link SandboxException} saying why when it is gone, stopped or not this deployment's.
     */
    Sandbox adopt(String containerId, Workspace workspace, long linesStored) throws SandboxException;

    /** Whether {@link #suspend} and {@link #restore} work here, and if not, why. */
    CheckpointSupport checkpoints();

    /**
     * Writes {@code sandbox}'s interpreter (memory, processes) to a new directory under {@code parent}
     * and removes the sandbox. The sandbox must be idle. When this fails, the sandbox is left as it
     * was if it still runs (it is then still the caller's), or closed if the attempt stopped it.
     */
    Checkpoint suspend(Sandbox sandbox, java.nio.file.Path parent) throws SandboxException;

    /**
     * Writes {@code sandbox}'s interpreter to a new directory under {@code parent} and leaves the
     * sandbox running as it was (a fork's source goes on). The sandbox must be idle.
     */
    Checkpoint copy(Sandbox sandbox, java.nio.file.Path parent) throws SandboxException;

    /**
     * A new sandbox on {@code workspace} whose interpreter is the one {@code checkpoint} holds, with
     * the runner asked for every line after the first {@code linesStored}. {@code checkpoint} itself
     * is left as it was (it may be restored again).
     */
    Sandbox restore(Checkpoint checkpoint, Workspace workspace, long linesStored) throws SandboxException;

    /** Removes every sandbox a previous process of this server left behind (found by label) but {@code adopted}. */
    int reapOrphans(java.util.Set<String> adopted);

    /** Facts for {@code /healthz}: engine version, runtimes, image. */
    EngineInfo info();

    @Override
    void close();
}
