package dev.codeinterp.server.session;

import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.sandbox.RunnerOutput;
import dev.codeinterp.server.sandbox.Sandbox;
import dev.codeinterp.server.sandbox.SandboxException;
import dev.codeinterp.server.sandbox.SandboxExit;

import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The session's one sandbox: taken from the {@link SandboxSource} when needed, its messages and
 * its death routed to the session (tagged with the sandbox, so a replaced one's late words are
 * told apart), closed when replaced. A new session adopts its first sandbox's workspace; every
 * sandbox taken is reported (the store remembers it, for a restarted server to adopt). Used by the
 * session's worker only (and by its closer once the worker stopped, or before it starts).
 */
final class SandboxSlot {
    private final SandboxSource source;
    private final Consumer<Workspace> workspaceAdopted;
    private final BiConsumer<Sandbox, RunnerOutput> output;
    private final Consumer<Sandbox> exited;
    private final Consumer<Sandbox> taken;
    private volatile Workspace workspace;
    private Sandbox sandbox;

    /** {@code workspace} is the session's existing one, or null for a new session (reported to {@code workspaceAdopted}). */
    SandboxSlot(SandboxSource source, Workspace workspace, Consumer<Workspace> workspaceAdopted,
                BiConsumer<Sandbox, RunnerOutput> output, Consumer<Sandbox> exited, Consumer<Sandbox> taken) {
        this.taken = taken;
        this.source = source;
        this.workspace = workspace;
        this.workspaceAdopted = workspaceAdopted;
        this.output = output;
        this.exited = exited;
    }

    /** A live sandbox: the one held, or a fresh one in place of a dead one. */
    void ensure() throws SandboxException {
        if (sandbox != null && sandbox.alive()) {
            return;
        }
        discard();
        Workspace mine = workspace;
        Sandbox fresh = mine == null ? source.fresh() : source.on(mine);
        if (mine == null) {
            workspace = fresh.workspace();
            workspaceAdopted.accept(fresh.workspace());
        }
        taken.accept(fresh);
        hold(fresh);
    }

    /** A sandbox an earlier server process left running, already attached: held as if taken here. */
    void adopt(Sandbox running) {
        hold(running);
    }

    private void hold(Sandbox s) {
        sandbox = s;
        s.onOutput(m -> output.accept(s, m), () -> exited.accept(s));
    }

    void acknowledge(long lines) {
        if (sandbox != null) {
            sandbox.acknowledge(lines);
        }
    }

    /** The sandbox held if its runner is alive, else null; still held. */
    Sandbox live() {
        return sandbox != null && sandbox.alive() ? sandbox : null;
    }

    /** The sandbox held (or null), no longer held: its new owner suspends or removes it. */
    Sandbox release() {
        Sandbox s = sandbox;
        sandbox = null;
        return s;
    }

    /** Lets go of the sandbox held, if any, and leaves it running for the next server process. */
    void detach() {
        Sandbox s = sandbox;
        sandbox = null;
        if (s != null) {
            s.detach();
        }
    }

    /** Whether {@code s} is the sandbox held now (not one already replaced). */
    boolean holds(Sandbox s) {
        return s == sandbox;
    }

    void send(String line) {
        sandbox.send(line);
    }

    SandboxExit diagnose() {
        return sandbox.diagnose();
    }

    /** Closes the sandbox held, if any. */
    void discard() {
        Sandbox s = sandbox;
        sandbox = null;
        if (s != null) {
            s.close();
        }
    }

    /** The session's files; null only before a new session's first sandbox. */
    Workspace workspace() {
        return workspace;
    }
}
