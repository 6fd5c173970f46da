package dev.codeinterp.server.session;

import dev.codeinterp.model.Event;
import dev.codeinterp.server.files.Workspace;
import dev.codeinterp.server.files.WorkspaceException;
import dev.codeinterp.server.files.WorkspaceFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which files a cell created or changed: the workspace is stamped before the cell and compared
 * after it, one {@code artifact} event per new or changed file. No runner involvement, so files
 * written by the cell's subprocesses count too.
 */
final class ArtifactTracker {
    private static final Logger log = LoggerFactory.getLogger(ArtifactTracker.class);

    private final String sessionId;
    private final FileLinks links;
    private Map<String, Workspace.Stamp> before = Map.of();

    ArtifactTracker(String sessionId, FileLinks links) {
        this.sessionId = sessionId;
        this.links = links;
    }

    /** Stamps the workspace as the cell starts; an unreadable workspace counts as empty. */
    void beforeCell(Workspace workspace) {
        try {
            before = workspace == null ? Map.of() : workspace.snapshot();
        } catch (WorkspaceException e) {
            before = Map.of();
        }
    }

    /** The artifacts of the cell that just ended, to be sent before its {@code finished}. */
    List<Event.Artifact> afterCell(Workspace workspace) {
        List<Event.Artifact> artifacts = new ArrayList<>();
        if (workspace == null) {
            return artifacts;
        }
        try {
            for (WorkspaceFile f : workspace.changedSince(before)) {
                artifacts.add(new Event.Artifact(f.name(), f.size(), f.mime(), links.url(sessionId, f.name())));
            }
        } catch (WorkspaceException e) {
            log.warn("session {}: could not list the workspace: {}", sessionId, e.getMessage());
        } finally {
            before = Map.of();
        }
        return artifacts;
    }
}
