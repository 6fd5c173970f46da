package dev.codeinterp.server.sandbox;

import java.nio.file.Path;

/**
 * A sandbox's interpreter written to disk: the directory the engine wrote (its name is the
 * checkpoint's name, unique per checkpoint) and how many bytes it holds. What the directory holds
 * is the runtime's business; it is only ever restored into a container created like the first.
 */
public record Checkpoint(Path dir, long bytes) {
    public String name() {
        return dir.getFileName().toString();
    }
}
