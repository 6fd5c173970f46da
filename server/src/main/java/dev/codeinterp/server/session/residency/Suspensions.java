package dev.codeinterp.server.session.residency;

import dev.codeinterp.server.files.TarStream;
import dev.codeinterp.server.files.Trees;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.files.Workspaces;
import dev.codeinterp.server.sandbox.Checkpoint;
import dev.codeinterp.server.sandbox.CheckpointRefusedException;
import dev.codeinterp.server.sandbox.CheckpointSupport;
import dev.codeinterp.server.sandbox.Sandbox;
import dev.codeinterp.server.sandbox.SandboxException;
import dev.codeinterp.server.sandbox.SandboxPool;
import dev.codeinterp.server.session.Durations;
import dev.codeinterp.server.session.SuspendFailedException;
import dev.codeinterp.server.store.SessionRepository;
import dev.codeinterp.server.store.StoredSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Where suspended sessions live: {@code <data>/suspended/<session id>/} holds the interpreter's
 * checkpoint (a directory named after it) and {@code workspace.tar}, the files. The store says
 * which checkpoint is the session's, and it says so only once both are whole on disk, so a
 * half-written one (a full disk, a crash) is never restored. Suspended sessions' checkpoints are
 * kept for a time and within a disk budget; past either, the longest suspended lose their variables
 * first, and keep their files and history.
 */
final class Suspensions {
    private static final Logger log = LoggerFactory.getLogger(Suspensions.class);
    static final String ARCHIVE = "workspace.tar";
    private static final long RECHECK_NO = Duration.ofSeconds(30).toNanos();

    /** What a suspension wrote: the checkpoint's name and size, or null when there was no interpreter to keep. */
    record Parked(String checkpoint, long bytes) {
    }

    /** A suspended session back: its workspace, its restored sandbox (or null) and, when null, why its variables are gone (or null). */
    record Resumed(Workspace workspace, Sandbox sandbox, String variablesLost) {
    }

    private final Path root;
    private final SandboxPool pool;
    private final Workspaces workspaces;
    private final SessionRepository sessions;
    private final Duration keptFor;
    private final long diskBudget;
    private volatile CheckpointSupport support;
    private volatile long supportAskedAt;

    Suspensions(Path root, SandboxPool pool, Workspaces workspaces, SessionRepository sessions, Duration keptFor, long diskBudget) {
        this.root = root.toAbsolutePath().normalize();
        this.pool = pool;
        this.workspaces = workspaces;
        this.sessions = sessions;
        this.keptFor = keptFor;
        this.diskBudget = diskBudget;
    }

    /**
     * Whether this server can checkpoint. A yes holds for the process's life; a no is asked again after
     * 30 s, since an engine that was down or restarting at start may answer yes now.
     */
    CheckpointSupport support() {
        CheckpointSupport known = support;
        if (known != null && (known.supported() || System.nanoTime() - supportAskedAt < RECHECK_NO)) {
            return known;
        }
        known = pool.checkpoints();
        supportAskedAt = System.nanoTime();
        support = known;
        return known;
    }

    /**
     * Run by the session's worker once idle: the interpreter to a checkpoint, the files to an archive,
     * then the store says suspended. A sandbox that cannot be checkpointed here is not suspended (the
     * caller decides what an idle one becomes).
     */
    Parked park(String sessionId, Sandbox sandbox, Workspace workspace, long lastActiveAt) {
        CheckpointSupport support = support();
        if (sandbox != null && !support.supported()) {
            throw new SandboxException("sessions cannot be suspended here: " + support.why());
        }
        Path dir = root.resolve(sessionId);
        Checkpoint checkpoint = null;
        long lines = sandbox == null ? 0 : sandbox.linesRead();
        try {
            if (sandbox != null) {
                checkpoint = pool.suspend(sandbox, dir);
            }
            workspaces.park(workspace, dir.resolve(ARCHIVE));
        } catch (RuntimeException e) {
            // nothing half-written is kept (a full disk, most often). The interpreter, if its checkpoint
            // already stopped it, comes back from that checkpoint onto its files, which are still mounted.
            Sandbox back = checkpoint == null ? null : bringBack(sessionId, checkpoint, workspace, lines);
            Trees.delete(dir);
            throw new SuspendFailedException("could not suspend the session: " + e.getMessage(), e, back);
        }
        String name = checkpoint == null ? null : checkpoint.name();
        long bytes = checkpoint == null ? 0 : checkpoint.bytes();
        sessions.markSuspended(sessionId, name, bytes, lastActiveAt, System.currentTimeMillis());
        return new Parked(name, bytes);
    }

    /**
     * As {@link #park}, where the interpreter cannot be checkpointed (a move off a runc node): the
     * files to an archive, the sandbox removed, and the store says the variables are gone and
     * {@code why}. On failure the sandbox is untouched and goes on.
     */
    Parked parkFilesOnly(String sessionId, Sandbox sandbox, Workspace workspace, long lastActiveAt, String why) {
        Path dir = root.resolve(sessionId);
        try {
            if (!workspaces.park(workspace, dir.resolve(ARCHIVE))) {
                workspaces.archive(workspace, dir.resolve(ARCHIVE)); // a plain folder: it goes as an archive all the same
            }
        } catch (RuntimeException e) {
            Trees.delete(dir);
            throw new SuspendFailedException("could not save the session's files: " + e.getMessage(), e, sandbox);
        }
        if (sandbox != null) {
            sandbox.close();
        }
        sessions.markSuspended(sessionId, null, 0, sandbox == null ? null : why, lastActiveAt, System.currentTimeMillis());
        return new Parked(null, 0);
    }

    /**
     * The folder of suspended session {@code stored}, whole for another node to take: its checkpoint
     * (if kept) and its files' archive, written now when its workspace is a plain folder (park leaves
     * those where they are).
     */
    Path packed(StoredSession stored) {
        Path dir = root.resolve(stored.id());
        Path archive = dir.resolve(ARCHIVE);
        if (!Files.exists(archive) && stored.workspace() != null) {
            workspaces.archive(workspaces.open(stored.workspace()), archive);
        }
        return dir;
    }

    /**
     * Takes the folder of a session suspended on another node, sent as a tar ({@link #packed} there),
     * into a folder of its own: written aside and renamed, so nothing half-received is ever resumed.
     */
    void receive(String sessionId, InputStream tar, long maxBytes) {
        Path dir = root.resolve(sessionId);
        Path partial = root.resolve(sessionId + ".arriving");
        Trees.delete(partial);
        try {
            TarStream.unpack(tar, partial, maxBytes);
            Trees.delete(dir);
            Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new SandboxException("could not take the session's folder: " + e.getMessage(), e);
        } finally {
            Trees.delete(partial);
        }
    }

    /** The interpreter a failed suspension stopped, restored from the checkpoint it wrote; null when that fails too. */
    private Sandbox bringBack(String sessionId, Checkpoint checkpoint, Workspace workspace, long lines) {
        try {
            Sandbox back = pool.restore(checkpoint, workspace, lines);
            sessions.markResumed(sessionId, back.id());
            log.info("session {}: suspending it failed; its interpreter is back from the checkpoint", sessionId);
            return back;
        } catch (RuntimeException e) {
            log.warn("session {}: suspending it failed, and its interpreter could not be brought back: {}", sessionId, e.getMessage());
            return null;
        }
    }

    /**
     * Brings a suspended session back: its files, then its interpreter when a checkpoint is kept. A
     * checkpoint that will not restore (damaged, missing) leaves the session with its files and
     * history, and {@link Resumed#variablesLost} says why. Any other failure (the engine busy or gone)
     * throws and leaves the session suspended, to be tried again. The store says running before this returns.
     */
    Resumed resume(StoredSession stored) {
        Path dir = root.resolve(stored.id());
        Path archive = dir.resolve(ARCHIVE);
        Workspace workspace = Files.exists(archive) ? workspaces.unpark(stored.workspace(), archive)
                : workspaces.open(stored.workspace());
        StoredSession.Suspension suspension = stored.suspension();
        Sandbox sandbox = null;
        String lost = suspension.variablesLost();
        if (suspension.checkpoint() != null) {
            try {
                sandbox = pool.restore(new Checkpoint(dir.resolve(suspension.checkpoint()), suspension.checkpointBytes()), workspace,
                        stored.sandboxLines());
            } catch (CheckpointRefusedException e) {
                log.warn("session {}: its checkpoint did not restore: {}", stored.id(), e.getMessage());
                lost = "its interpreter could not be brought back from disk (" + e.getMessage()
                        + "): its variables are gone, its files are kept";
            }
        }
        try {
            sessions.markResumed(stored.id(), sandbox == null ? null : sandbox.id());
        } catch (RuntimeException e) {
            if (sandbox != null) {
                sandbox.close();
            }
            throw e;
        }
        Trees.delete(dir);
        return new Resumed(workspace, sandbox, lost);
    }

    /**
     * Gives up the variables of sessions suspended longer than the time kept, then of the longest
     * suspended until the checkpoints fit the disk budget. Their files and history stay.
     */
    int evict(long now) {
        List<StoredSession> kept = sessions.suspendedWithCheckpoint(); // longest suspended first
        long total = kept.stream().mapToLong(s -> s.suspension().checkpointBytes()).sum();
        int evicted = 0;
        for (StoredSession s : kept) {
            String why;
            if (now - s.suspension().at() > keptFor.toMillis()) {
                why = "it stayed suspended longer than " + Durations.words(keptFor) + ": its variables are gone, its files are kept";
            } else if (total > diskBudget) {
                why = "suspended sessions needed more disk than their budget of " + (diskBudget >> 20)
                        + " MiB and it had been suspended longest: its variables are gone, its files are kept";
            } else {
                continue;
            }
            sessions.dropCheckpoint(s.id(), why);
            Trees.delete(root.resolve(s.id()).resolve(s.suspension().checkpoint()));
            total -= s.suspension().checkpointBytes();
            evicted++;
        }
        if (evicted > 0) {
            log.info("gave up the variables of {} suspended session(s) (time kept or disk budget)", evicted);
        }
        return evicted;
    }

    /**
     * At start: removes what no suspended session owns under the folder (a suspension cut short by a
     * crash, sessions closed since), and checkpoints a session does not name.
     */
    void sweep() {
        if (!Files.isDirectory(root)) {
            return;
        }
        Map<String, StoredSession> owners = sessions.suspended().stream().collect(Collectors.toMap(StoredSession::id, s -> s));
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root)) {
            for (Path d : dirs) {
                StoredSession owner = owners.get(d.getFileName().toString());
                if (owner == null) {
                    Trees.delete(d);
                    continue;
                }
                String checkpoint = owner.suspension().checkpoint();
                try (DirectoryStream<Path> inside = Files.newDirectoryStream(d)) {
                    for (Path f : inside) {
                        String name = f.getFileName().toString();
                        if (!name.equals(ARCHIVE) && !name.equals(checkpoint)) {
                            Trees.delete(f);
                        }
                    }
                }
            }
        } catch (IOException e) {
            log.warn("could not sweep {}: {}", root, e.getMessage());
        }
    }

    /** Removes a closed session's suspended state (its workspace files go with the session). */
    void discard(String sessionId) {
        Trees.delete(root.resolve(sessionId));
    }
}
