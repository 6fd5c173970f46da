package dev.codeinterp.server.files;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Creates and removes workspaces: one host directory per session under {@code <data>/workspaces},
 * each a tmpfs of its own mounted by the server, so a full workspace is ENOSPC inside the cell
 * (and for uploads) while the host's disk is untouched, and files outlive the sandbox that wrote
 * them (restarts and timeouts replace the container, not the mount). The sandbox gets the
 * directory as a bind mount, which works the same under runc and gVisor; archive copy into a
 * running gVisor sandbox does not (see docs/ARCHITECTURE.md).
 */
public final class Workspaces {
    private static final Logger log = LoggerFactory.getLogger(Workspaces.class);
    private static final Pattern ID = Pattern.compile("[a-f0-9]{32}");

    private final Path root;
    private final long bytes;
    private volatile boolean bounded = true;

    public Workspaces(Path root, long bytes) {
        this.root = root.toAbsolutePath().normalize();
        this.bytes = bytes;
    }

    /** False when this process may not mount (not root): workspaces are then plain, unbounded folders. */
    public boolean bounded() {
        return bounded;
    }

    public Workspace create() {
        return prepare(UUID.randomUUID().toString().replace("-", ""));
    }

    /** The workspace {@code id}, mounted again if the host lost the mount (a reboot: its files are gone then). */
    public Workspace open(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("not a workspace id: " + id);
        }
        return prepare(id);
    }

    /** Removes workspace {@code id} if it is here (its files went elsewhere). */
    public void discard(String id) {
        if (id != null && ID.matcher(id).matches() && Files.exists(root.resolve(id), LinkOption.NOFOLLOW_LINKS)) {
            destroy(new Workspace(id, root.resolve(id)));
        }
    }

    public void destroy(Workspace workspace) {
        Path dir = workspace.dir();
        if (isMountPoint(dir)) {
            if (!run("umount", dir.toString())) {
                run("umount", "-l", dir.toString());
            }
        }
        Trees.delete(dir);
    }

    /**
     * Moves the workspace's files to {@code archive} on disk and gives its memory back (the tmpfs is
     * unmounted): a suspended session holds no memory. The archive is written aside and renamed into
     * place, so a full disk leaves no half-written one; on failure the workspace is untouched. A
     * workspace that is a plain folder (no tmpfs) is already on disk and stays where it is: the answer
     * is then false and no archive is written.
     */
    public boolean park(Workspace workspace, Path archive) {
        Path dir = workspace.dir();
        if (!isMountPoint(dir)) {
            return false;
        }
        archive(workspace, archive);
        destroy(workspace);
        return true;
    }

    /**
     * Writes the workspace's files to {@code archive}, as {@link #park} does, and leaves the workspace as
     * it is: a plain-folder workspace that moves to another node goes as an archive too.
     */
    public void archive(Workspace workspace, Path archive) {
        Path dir = workspace.dir();
        Path partial = archive.resolveSibling(archive.getFileName() + ".partial");
        try {
            Files.createDirectories(archive.getParent());
            // --numeric-owner: the sandbox's uid 1000 need not exist on the host; no -h: links stay links
            if (!run("tar", "--numeric-owner", "-C", dir.toString(), "-cf", partial.toString(), ".")) {
                throw new WorkspaceException(WorkspaceException.Reason.UNAVAILABLE, "could not save the workspace's files (disk full?)");
            }
            Files.move(partial, archive, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new WorkspaceException(WorkspaceException.Reason.UNAVAILABLE, "could not save the workspace's files: " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException ignored) {
                // a leftover .partial is never read
            }
        }
    }

    /** The workspace {@code id} mounted again with the files {@link #park} saved in {@code archive} (kept; the caller removes it). */
    public Workspace unpark(String id, Path archive) {
        Workspace workspace = open(id);
        if (!run("tar", "--numeric-owner", "--same-owner", "--same-permissions", "-C", workspace.dir().toString(),
                "-xf", archive.toString())) {
            throw new WorkspaceException(WorkspaceException.Reason.UNAVAILABLE, "could not bring back the workspace's files");
        }
        return workspace;
    }

    /**
     * A new workspace holding a copy of {@code source}'s files, as they are (owners, modes; links
     * copied as links, never followed): a fork's. On failure nothing new is left behind.
     */
    public Workspace copy(Workspace source) {
        Workspace copy = create();
        // -a: recursive, owners and modes kept, links never followed (-P); "/." copies hidden files too
        if (!run("cp", "-a", "--", source.dir() + "/.", copy.dir().toString())) {
            destroy(copy);
            throw new WorkspaceException(WorkspaceException.Reason.UNAVAILABLE, "could not copy the workspace's files (disk full?)");
        }
        return copy;
    }

    /** Removes every workspace not in {@code keep} (those of sessions that ended while we were down). */
    public int retainOnly(Set<String> keep) {
        int removed = 0;
        if (!Files.isDirectory(root)) {
            return 0;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root)) {
            for (Path d : dirs) {
                String id = d.getFileName().toString();
                if (ID.matcher(id).matches() && !keep.contains(id)) {
                    destroy(new Workspace(id, d));
                    removed++;
                }
            }
        } catch (IOException e) {
            log.warn("could not list workspaces: {}", e.getMessage());
        }
        return removed;
    }

    private synchronized Workspace prepare(String id) {
        Path dir = root.resolve(id);
        try {
            Files.createDirectories(dir);
            if (bounded && !isMountPoint(dir)) {
                String options = "size=" + bytes + ",uid=1000,gid=1000,mode=0700,nosuid,nodev";
                if (!run("mount", "-t", "tmpfs", "-o", options, "codeinterp-workspace", dir.toString())) {
                    bounded = false;
                    log.warn("cannot mount a tmpfs for workspaces (not root?): workspaces are unbounded folders under {}", root);
                }
            }
            if (!bounded) {
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
            }
            return new Workspace(id, dir);
        } catch (IOException e) {
            throw new WorkspaceException(WorkspaceException.Reason.UNAVAILABLE, "cannot create a workspace: " + e.getMessage(), e);
        }
    }

    /**
     * Whether a file system is mounted on {@code dir}: its device differs from its parent's, as
     * {@code mountpoint(1)} decides. Reading /proc/self/mountinfo instead meant reading every
     * sandbox's mounts on each create and close: the more sessions open, the dearer each one.
     */
    static boolean isMountPoint(Path dir) {
        try {
            Path absolute = dir.toAbsolutePath().normalize();
            Path parent = absolute.getParent();
            return parent != null && Files.isDirectory(absolute, LinkOption.NOFOLLOW_LINKS)
                    && !Files.getAttribute(absolute, "unix:dev", LinkOption.NOFOLLOW_LINKS)
                    .equals(Files.getAttribute(parent, "unix:dev"));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static boolean run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            if (p.exitValue() != 0) {
                log.debug("{} failed: {}", List.of(command), new String(out, StandardCharsets.UTF_8).trim());
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
