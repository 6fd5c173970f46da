package dev.codeinterp.server.packages;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The host's store of fetched artifacts. {@code blobs/<sha256>} holds each file once, named by its
 * content's hash (computed here as it is stored, so a name is its proof); that folder alone is
 * bound read-only into every sandbox as {@link #SANDBOX_PATH}. {@code resolved/<key>} records what a
 * request resolved to (one {@code <sha256> <dest>} a line), so a second session asking the same
 * installs without a fetch. Files are written under {@code staging/} and renamed into place, so a
 * reader never sees half a file, and concurrent fetches of the same file agree.
 */
public final class PackageCache {
    /** Where the blobs appear inside a sandbox. */
    public static final String SANDBOX_PATH = "/packages";

    private final Path root;
    private final Path blobs;
    private final Path resolved;
    private final Path staging;

    public PackageCache(Path root) {
        this.root = root.toAbsolutePath();
        this.blobs = this.root.resolve("blobs");
        this.resolved = this.root.resolve("resolved");
        this.staging = this.root.resolve("staging");
    }

    /** Creates the folders (the blobs world-readable: the sandbox's uid reads them). Idempotent. */
    public PackageCache open() {
        try {
            for (Path dir : List.of(root, blobs, resolved, staging)) {
                Files.createDirectories(dir);
            }
            Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setPosixFilePermissions(blobs, PosixFilePermissions.fromString("rwxr-xr-x"));
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the package cache at " + root, e);
        }
    }

    /** The folder bound read-only into sandboxes. */
    public Path blobs() {
        return blobs;
    }

    /** A fresh folder for one fetch, on the cache's filesystem (so blobs move in by rename). */
    Path newStagingDir() throws IOException {
        return Files.createTempDirectory(staging, "fetch-");
    }

    /** Moves {@code file} into the store under its SHA-256 and returns the hash. */
    String store(Path file) throws IOException {
        String sha256 = sha256(file);
        Path target = blobs.resolve(sha256);
        if (Files.exists(target)) {
            Files.delete(file);
            return sha256;
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        try {
            Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return sha256;
    }

    /** What {@code key} resolved to, if it was fetched before and every blob is still there. */
    Optional<List<CachedArtifact>> lookup(String key) {
        Path record = resolved.resolve(key);
        if (!Files.isRegularFile(record)) {
            return Optional.empty();
        }
        try {
            List<CachedArtifact> artifacts = new ArrayList<>();
            for (String line : Files.readAllLines(record, StandardCharsets.UTF_8)) {
                String[] parts = line.split(" ", 2);
                if (parts.length != 2 || !parts[0].matches("[0-9a-f]{64}") || !Files.isRegularFile(blobs.resolve(parts[0]))) {
                    return Optional.empty(); // damaged or pruned: fetch again
                }
                artifacts.add(new CachedArtifact(parts[0], parts[1].equals("-") ? null : parts[1]));
            }
            return Optional.of(artifacts);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    void remember(String key, List<CachedArtifact> artifacts) throws IOException {
        StringBuilder text = new StringBuilder();
        for (CachedArtifact a : artifacts) {
            text.append(a.sha256()).append(' ').append(a.dest() == null ? "-" : a.dest()).append('\n');
        }
        Path temp = Files.createTempFile(staging, "resolved-", ".txt");
        Files.writeString(temp, text, StandardCharsets.UTF_8);
        Files.move(temp, resolved.resolve(key), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One stored file and, for npm, where in the session's tree it goes. */
    record CachedArtifact(String sha256, String dest) {
    }
}
