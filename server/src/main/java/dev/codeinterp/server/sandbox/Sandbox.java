package dev.codeinterp.server.sandbox;

import dev.codeinterp.server.files.Workspace;

import java.util.function.Consumer;

/** One running interpreter: lines go in over stdin, runner messages come out. */
public interface Sandbox extends AutoCloseable {

    String id();

    String runtime();

    /** The workspace mounted at {@code /workspace}; it outlives the sandbox. */
    Workspace workspace();

    /**
     * Where this sandbox's messages and its exit go. Set once, by the session that owns it. The
     * messages come as what one read of the runner's output held, in order: a quick cell's whole
     * life is often one such read.
     */
    void onOutput(Consumer<RunnerOutput> output, Runnable exited);

    /** Writes one protocol line (without the newline) to the runner's stdin. */
    void send(String line);

    /**
     * The runner's lines numbered below {@code lines} are stored: the runner may forget them. It keeps
     * what is not acknowledged (bounded), to send again to a server that restarts.
     */
    void acknowledge(long lines);

    /** How many of the runner's lines have been read: what a copy of its interpreter has already said. */
    long linesRead();

    /**
     * Lets go of the sandbox and leaves it running, for a later server process to adopt: the server
     * is stopping and the session's variables must outlive it. Neither exit nor output is reported after.
     */
    void detach();

    /** Inspects the sandbox after its runner went away. */
    SandboxExit diagnose();

    boolean alive();

    /** Kills and removes the sandbox. Idempotent; never throws. */
    @Override
    void close();
}
