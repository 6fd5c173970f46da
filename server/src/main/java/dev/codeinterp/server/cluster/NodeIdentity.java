package dev.codeinterp.server.cluster;

import dev.codeinterp.server.config.NodeSettings;
import dev.codeinterp.server.session.Tokens;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * Who this node is: its id, and a secret only its data directory holds ({@code node/key}), whose hash
 * the node registry keeps, so the same server restarted (even after {@code kill -9}, its heartbeat
 * still fresh) takes its row back, while another process claiming the same id is refused. Without
 * NODE_ID the id is the one this data directory was first given (from the host name), so it stays
 * the same across restarts and a container's changing host name does not orphan its sessions.
 */
public record NodeIdentity(String id, String key) {

    public String keyHash() {
        return Tokens.hash(key);
    }

    public static NodeIdentity of(NodeSettings settings, Path dataDir) {
        Path dir = dataDir.resolve("node");
        try {
            Files.createDirectories(dir);
            String id = settings.id() != null ? settings.id() : read(dir.resolve("id"));
            if (id == null || !id.matches(NodeSettings.ID_PATTERN)) {
                id = fromHostName();
            }
            Files.writeString(dir.resolve("id"), id + "\n", StandardCharsets.UTF_8);
            String key = read(dir.resolve("key"));
            if (key == null || key.length() < 32) {
                key = Tokens.newToken();
                Path file = dir.resolve("key");
                Files.deleteIfExists(file);
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.writeString(file, key + "\n", StandardCharsets.UTF_8);
            }
            return new NodeIdentity(id, key);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep this node's identity in " + dir, e);
        }
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8).trim() : null;
    }

    /** The host name as a node id: lower case, dashes for anything else, at most 32 characters. */
    static String fromHostName() {
        String name;
        try {
            name = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            name = "node";
        }
        String id = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("^-+|-+$", "");
        if (id.length() > 32) {
            id = id.substring(0, 32).replaceAll("-+$", "");
        }
        return id.isEmpty() ? "node" : id;
    }
}
