package dev.codeinterp.web.embed;

import dev.codeinterp.model.embed.EmbedManifest;
import dev.codeinterp.web.bindings.EmbedFiles;
import dev.codeinterp.web.session.WorkspaceFiles;

import java.util.List;

/**
 * The widget's {@code files} option: the manifest, then each file it lists, put in the workspace
 * one after the other before anything runs, through the same upload (and name and size checks)
 * as any other file. The first failure stops it with a sentence that says which file and why.
 */
final class ManifestFiles {
    private static final double MAX_MANIFEST_BYTES = 64 * 1024;

    interface Done {
        /** {@code error} is null when every file is in place. */
        void done(String error);
    }

    private ManifestFiles() {
    }

    static void load(String manifestUrl, WorkspaceFiles workspace, Done done) {
        EmbedFiles.fetchText(manifestUrl, null, MAX_MANIFEST_BYTES, (text, error, url) -> {
            if (text == null) {
                done.done("The files manifest could not be loaded: " + error);
                return;
            }
            EmbedManifest manifest;
            try {
                manifest = EmbedManifest.decode(text);
            } catch (RuntimeException e) {
                done.done("The files manifest could not be read: " + e.getMessage());
                return;
            }
            next(manifest.files(), 0, url, workspace, done);
        });
    }

    private static void next(List<EmbedManifest.Entry> files, int i, String base, WorkspaceFiles workspace, Done done) {
        if (i == files.size()) {
            done.done(null);
            return;
        }
        EmbedManifest.Entry entry = files.get(i);
        EmbedFiles.fetchFile(entry.url(), base, entry.name(), workspace.maxUploadBytes(), (file, error) -> {
            if (file == null) {
                done.done("The file " + entry.name() + " could not be loaded: " + error);
                return;
            }
            workspace.upload(file, (loaded, total) -> { }, uploadError -> {
                if (uploadError != null) {
                    done.done("The file " + entry.name() + " could not be put in the workspace: " + uploadError);
                } else {
                    next(files, i + 1, base, workspace, done);
                }
            });
        });
    }
}
