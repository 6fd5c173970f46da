package dev.codeinterp.server.files;

import dev.codeinterp.model.rules.MimeTypes;
import dev.codeinterp.model.rules.WorkspaceNames;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One session's workspace as the server sees it: a host directory that the sandbox has bind-mounted
 * as {@code /workspace}. Everything in it was possibly written by hostile code, so the server never
 * follows a link in it, only touches regular files at its top level, and writes by creating a fresh
 * file and renaming it over the name (a rename replaces a planted symlink instead of writing through it).
 */
public final class Workspace {
    /** What a file looked like at a moment, to tell which files a cell created or changed. */
    public record Stamp(long size, long modifiedNanos, Object key) {
    }

    /** An open download: what it is and a channel positioned at its start. Close it. */
    public record OpenFile(WorkspaceFile file, SeekableByteChannel channel) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    private static final int SANDBOX_UID = 1000;

    private final String id;
    private final Path dir;

    Workspace(String id, Path dir) {
        this.id = id;
        this.dir = dir;
    }

    public String id() {
        return id;
    }

    /** The host directory (bind-mounted into the sandbox). */
    public Path dir() {
        return dir;
    }

    /** The regular files at the top of the workspace, by name. Links, folders and devices are not listed. */
    public List<WorkspaceFile> list() {
        List<WorkspaceFile> files = new ArrayList<>();
        scan((name, attrs) -> files.add(describe(name, attrs)));
        files.sort(Comparator.comparing(WorkspaceFile::name));
        return files;
    }

    public Map<String, Stamp> snapshot() {
        Map<String, Stamp> stamps = new LinkedHashMap<>();
        scan((name, attrs) -> stamps.put(name, stamp(attrs)));
        return stamps;
    }

    /** Files created or changed since {@code before}, by name. */
    public List<WorkspaceFile> changedSince(Map<String, Stamp> before) {
        List<WorkspaceFile> changed = new ArrayList<>();
        scan((name, attrs) -> {
            if (!stamp(attrs).equals(before.get(name))) {
                changed.add(describe(name, attrs));
            }
        });
        changed.sort(Comparator.comparing(WorkspaceFile::name));
        return changed;
    }

    /**
     * Streams {@code in} into the file {@code name} (already checked by {@link WorkspaceNames}),
     * refusing past {@code maxBytes} without keeping more than a buffer in memory.
     */
    public WorkspaceFile write(String name, InputStream in, long maxBytes) {
        Path target = dir.resolve(name);
        Path temp = dir.resolve(WorkspaceNames.TEMP_PREFIX + UUID.randomUUID());
        boolean moved = false;
        try {
            try (OutputStream out = Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                byte[] buffer = new byte[64 << 10];
                long total = 0;
                int n;
                while ((n = in.read(buffer)) > 0) {
                    total += n;
                    if (total > maxBytes) {
                        throw new WorkspaceException(WorkspaceException.Reason.TOO_LARGE,
                                "'" + name + "' is larger than the " + Sizes.human(maxBytes) + " upload limit");
                    }
                    out.write(buffer, 0, n);
                }
            }
            handToSandbox(temp);
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            moved = true;
            return describe(name, Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        } catch (IOException e) {
            if (isNoSpace(e)) {
                throw new WorkspaceException(WorkspaceException.Reason.FULL,
                        "the workspace is full; delete files to make room for '" + name + "'", e);
            }
            if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                throw new WorkspaceException(WorkspaceException.Reason.CONFLICT, "'" + name + "' is a folder in the workspace", e);
            }
            throw new WorkspaceException(WorkspaceException.Reason.UNAVAILABLE, "could not store '" + name + "': " + e.getMessage(), e);
        } finally {
            if (!moved) {
                deleteQuietly(temp);
            }
        }
    }

    /** Opens a regular file for reading, never through a link: a link planted by code is "not found". */
    public OpenFile open(String name) {
        Path path = dir.resolve(name);
        try {
            BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attrs.isRegularFile() || name.startsWith(WorkspaceNames.TEMP_PREFIX)) {
                throw notFound(name);
            }
            // O_NOFOLLOW: a link swapped in after the check fails the open instead of being followed
            SeekableByteChannel channel = Files.newByteChannel(path, java.util.Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
            return new OpenFile(describe(name, attrs), channel);
        } catch (NoSuchFileException e) {
            throw notFound(name);
        } catch (IOException e) {
            throw new WorkspaceException(WorkspaceException.Reason.NOT_FOUND, "'" + name + "' cannot be read", e);
        }
    }

    /** Removes a file or a link (never what a link points to). False if there was nothing by that name. */
    public boolean delete(String name) {
        Path path = dir.resolve(name);
        try {
            if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                throw new WorkspaceException(WorkspaceException.Reason.CONFLICT, "'" + name + "' is a folder; delete it from code");
            }
            return Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new WorkspaceException(WorkspaceException.Reason.UNAVAILABLE, "could not delete '" + name + "': " + e.getMessage(), e);
        }
    }

    /**
     * What the workspace's filesystem can still take: statvfs on the directory itself (a FileStore
     * would first find the mount by reading all of /proc/mounts, every sandbox's included).
     */
    public long freeBytes() {
        long usable = dir.toFile().getUsableSpace();
        return usable == 0 && !Files.isDirectory(dir) ? Long.MAX_VALUE : usable;
    }

    private interface Visitor {
        void visit(String name, BasicFileAttributes attrs);
    }

    private void scan(Visitor visitor) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (name.startsWith(WorkspaceNames.TEMP_PREFIX)) {
                    continue;
                }
                BasicFileAttributes attrs;
                try {
                    attrs = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (NoSuchFileException gone) {
                    continue; // deleted by the sandbox while we looked
                }
                if (attrs.isRegularFile()) {
                    visitor.visit(name, attrs);
                }
            }
        } catch (NoSuchFileException e) {
            throw new WorkspaceException(WorkspaceException.Reason.UNAVAILABLE, "the workspace is gone", e);
        } catch (IOException e) {
            throw new WorkspaceException(WorkspaceException.Reason.UNAVAILABLE, "cannot read the workspace: " + e.getMessage(), e);
        }
    }

    private static WorkspaceFile describe(String name, BasicFileAttributes attrs) {
        return new WorkspaceFile(name, attrs.size(), attrs.lastModifiedTime().toMillis(), MimeTypes.of(name));
    }

    private static Stamp stamp(BasicFileAttributes attrs) {
        return new Stamp(attrs.size(), attrs.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS), attrs.fileKey());
    }

    private static WorkspaceException notFound(String name) {
        return new WorkspaceException(WorkspaceException.Reason.NOT_FOUND, "no file '" + name + "' in the workspace");
    }

    /** Files the server puts in belong to the sandbox's user, so code can change and delete them. */
    private static void handToSandbox(Path file) {
        try {
            Files.setAttribute(file, "unix:uid", SANDBOX_UID, LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(file, "unix:gid", SANDBOX_UID, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // not root (a development run): the unbounded fallback workspace is world-writable instead
        }
    }

    static boolean isNoSpace(IOException e) {
        String m = e.getMessage();
        return m != null && (m.contains("No space left") || m.contains("Disk quota exceeded"));
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a leftover temp file is hidden from listings and goes with the workspace
        }
    }}
