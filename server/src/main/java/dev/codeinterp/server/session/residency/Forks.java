package dev.codeinterp.server.session.residency;

import dev.codeinterp.server.files.Trees;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.files.Workspaces;
import dev.codeinterp.server.sandbox.Checkpoint;
import dev.codeinterp.server.sandbox.Sandbox;
import dev.codeinterp.server.sandbox.SandboxPool;
import dev.codeinterp.server.session.Session;
import dev.codeinterp.server.session.SessionBusyException;
import dev.codeinterp.server.session.Tokens;
import dev.codeinterp.server.store.SessionForks;
import dev.codeinterp.server.store.SessionQuota;
import dev.codeinterp.server.store.StoredSession;

import java.nio.file.Path;

/**
 * Copies of a running session: its interpreter checkpointed while it runs on (the same mechanism
 * as a suspension, leaving the source running) and restored into a new sandbox, its files copied,
 * its history stored under the new session. The checkpoint is written under the suspended
 * sessions' folder, so one a crash leaves behind is swept at the next start.
 */
final class Forks {
    /** What a fork is made of: its files, its interpreter (null when the source had none running), and its last event number. */
    record Forked(Workspace workspace, Sandbox sandbox, long lastSeq) {
    }

    private record Copied(Checkpoint checkpoint, long lines, Workspace workspace) {
    }

    private final Path scratch;
    private final SandboxPool pool;
    private final Workspaces workspaces;
    private final SessionForks store;

    Forks(Path scratch, SandboxPool pool, Workspaces workspaces, SessionForks store) {
        this.scratch = scratch.toAbsolutePath().normalize();
        this.pool = pool;
        this.workspaces = workspaces;
        this.store = store;
    }

    /**
     * Makes {@code fork} (its row without a workspace yet) a copy of {@code source}, once the source
     * is idle ({@link SessionBusyException} while a cell waits or runs). On failure nothing of the
     * fork is left: no sandbox, no files, no row.
     */
    Forked fork(Session source, StoredSession fork, SessionQuota quota) {
        Path dir = scratch.resolve(fork.id());
        Workspace workspace = null;
        Sandbox sandbox = null;
        try {
            Copied copied = source.copy((running, files) -> {
                long lines = running == null ? 0 : running.linesRead(); // the source is idle: it writes nothing meanwhile
                Checkpoint checkpoint = running == null ? null : pool.copy(running, dir);
                return new Copied(checkpoint, lines, files == null ? workspaces.create() : workspaces.copy(files));
            });
            workspace = copied.workspace();
            if (copied.checkpoint() != null) {
                sandbox = pool.restore(copied.checkpoint(), workspace, copied.lines());
            }
            StoredSession row = new StoredSession(fork.id(), fork.tokenHash(), fork.runtime(), false, fork.createdAt(), null,
                    workspace.id(), fork.client(), fork.node());
            long lastSeq = store.insert(row, quota, source.id(), sandbox == null ? null : sandbox.id(), copied.lines(), Tokens::newId);
            return new Forked(workspace, sandbox, lastSeq);
        } catch (RuntimeException e) {
            if (sandbox != null) {
                sandbox.close();
            }
            if (workspace != null) {
                workspaces.destroy(workspace);
            }
            throw e;
        } finally {
            Trees.delete(dir);
        }
    }
}
