package dev.codeinterp.server.files;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;

/** Measuring and removing folders whose content hostile code may have written (workspaces, checkpoints). */
public final class Trees {
    private static final Logger log = LoggerFactory.getLogger(Trees.class);

    private Trees() {
    }

    /**
     * Removes {@code path} and everything under it, as far as it can; never throws. The server runs
     * as root: a link planted inside is removed, never followed ({@link Files#walk} does not follow).
     */
    public static void delete(Path path) {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (var walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    log.debug("could not delete {}: {}", p, e.getMessage());
                }
            });
        } catch (IOException | java.io.UncheckedIOException e) {
            log.warn("could not remove {}: {}", path, e.getMessage());
        }
    }

    /** The bytes of the regular files under {@code path} (links not followed); 0 when it cannot be read. */
    public static long size(Path path) {
        try (var walk = Files.walk(path)) {
            return walk.filter(f -> Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0;
        }
    }
}
