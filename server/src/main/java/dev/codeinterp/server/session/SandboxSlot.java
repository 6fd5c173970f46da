package dev.codeinterp.server.session;

import dev.codeinterp.model.runner.RunnerMessage;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.sandbox.Sandbox;
import dev.codeinterp.server.sandbox.SandboxException;
import dev.codeinterp.server.sandbox.SandboxExit;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The session's one sandbox: taken from the {@link SandboxSource} when needed, its messages and
 * its death routed to the session (tagged with the sandbox, so a replaced one's late words are
 * told apart), closed when replaced. A new session adopts its first sandbox's workspace. Used by
 * the session's worker only (and by its closer once the worker stopped).
 */
final class SandboxSlot {
    private final SandboxSource source;
    private final Consumer<Workspace> workspaceAdopted;
    private final BiConsumer<Sandbox, List<RunnerMessage>> output;
    private final Consumer<Sandbox> exited;
    private volatile Workspace workspace;
    private Sandbox sandbox;

    /** {@code workspace} is the session's existing one, or null for a new session (reported to {@code workspaceAdopted}). */
    SandboxSlot(SandboxSource source, Workspace workspace, Consumer<Workspace> workspaceAdopted,
                BiConsumer<Sandbox, List<RunnerMessage>> output, Consumer<Sandbox> exited) {
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
        sandbox = fresh;
        fresh.onOutput(m -> output.accept(fresh, m), () -> exited.accept(fresh));
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
