package dev.codeinterp.server.files;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;

/** Removing folders whose content hostile code may have written (workspaces, checkpoints). */
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
}
