package dev.codeinterp.web.view;

import dev.codeinterp.model.rest.FileEntry;
import dev.codeinterp.web.bindings.FileTransfer;
import dev.codeinterp.web.bindings.UserFiles;
import dev.codeinterp.web.session.WorkspaceFiles;
import org.teavm.jso.JSObject;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.List;

/**
 * The workspace beside the conversation: what is in it (download, delete), an upload button, and
 * drag-and-drop anywhere on the page. Each upload shows a progress bar; a file over the limit is
 * refused before a byte is sent.
 */
public final class FilesPanel {
    private final HTMLElement root = Dom.el("section", "files-panel");
    private final HTMLElement list = Dom.el("ul", "file-list");
    private final HTMLElement uploads = Dom.el("div", "uploads");
    private final HTMLElement title = Dom.text("h2", "files-title", "Files");
    private final HTMLElement hint = Dom.text("p", "files-hint", "No files yet. Upload or drop files here; code reads them by name.");
    private final HTMLElement problem = Dom.el("p", "files-problem");
    private WorkspaceFiles files;

    public FilesPanel() {
        root.setAttribute("data-testid", "files");
        root.setAttribute("aria-label", "Workspace files");
        HTMLElement head = Dom.el("div", "files-head");
        head.appendChild(title);
        HTMLElement picker = Dom.el("label", "btn small upload-button");
        picker.appendChild(Dom.document().createTextNode("Upload…"));
        HTMLElement input = Dom.el("input", "visually-hidden");
        input.setAttribute("type", "file");
        input.setAttribute("multiple", "");
        input.setAttribute("data-testid", "upload");
        input.setAttribute("aria-label", "Upload files to the workspace");
        UserFiles.onFilesPicked(input, this::upload);
        picker.appendChild(input);
        head.appendChild(picker);
        root.appendChild(head);
        root.appendChild(problem);
        root.appendChild(uploads);
        root.appendChild(list);
        root.appendChild(hint);
        // files dropped anywhere on the page are uploaded; the page shows where they go while dragging
        UserFiles.onFilesDropped(Dom.document().getBody(), this::upload);
    }

    public HTMLElement root() {
        return root;
    }

    /** Shows another workspace (a new session or mode); it is listed once its interpreter connects. */
    public void attach(WorkspaceFiles workspace, String emptyHint) {
        this.files = workspace;
        Dom.setText(hint, emptyHint);
        Dom.clear(list);
        Dom.clear(uploads);
        showProblem(null);
    }

    public void refresh() {
        WorkspaceFiles current = files;
        if (current == null) {
            return;
        }
        current.list((entries, error) -> {
            if (current != files) {
                return;
            }
            if (entries == null) {
                showProblem(error);
            } else {
                render(entries);
            }
        });
    }

    private void render(List<FileEntry> entries) {
        Dom.clear(list);
        hint.getStyle().setProperty("display", entries.isEmpty() ? "" : "none");
        Dom.setText(title, entries.isEmpty() ? "Files" : "Files (" + entries.size() + ")");
        for (FileEntry f : entries) {
            HTMLElement item = Dom.el("li", "file");
            item.setAttribute("data-testid", "file");
            item.setAttribute("data-name", f.name());
            item.appendChild(Dom.text("span", "file-name", f.name()));
            item.appendChild(Dom.text("span", "file-size", Format.bytes(f.size())));
            HTMLElement download = Dom.button("Download", "file-download", "Download " + f.name());
            download.getClassList().add("small");
            download.addEventListener("click", e -> files.save(f.name()));
            HTMLElement delete = Dom.button("Delete", "file-delete", "Delete " + f.name() + " from the workspace");
            delete.getClassList().add("small");
            delete.addEventListener("click", e -> files.delete(f.name(), error -> {
                showProblem(error);
                refresh();
            }));
            item.appendChild(download);
            item.appendChild(delete);
            list.appendChild(item);
        }
    }

    private void upload(JSObject file) {
        WorkspaceFiles target = files;
        if (target == null) {
            return;
        }
        String name = FileTransfer.name(file);
        double size = FileTransfer.size(file);
        if (size > target.maxUploadBytes()) {
            showProblem(name + " is " + Format.bytes((long) size) + "; the limit is " + Format.bytes(target.maxUploadBytes())
                    + " per file.");
            return;
        }
        HTMLElement row = Dom.el("div", "upload");
        row.setAttribute("data-testid", "upload-progress");
        HTMLElement label = Dom.text("span", "upload-name", name);
        HTMLElement bar = Dom.el("progress", null);
        bar.setAttribute("max", "1");
        bar.setAttribute("value", "0");
        row.appendChild(label);
        row.appendChild(bar);
        uploads.appendChild(row);
        target.upload(file, (loaded, total) -> bar.setAttribute("value", String.valueOf(total > 0 ? loaded / total : 0)), error -> {
            if (row.getParentNode() != null) {
                uploads.removeChild(row);
            }
            showProblem(error);
            refresh();
        });
    }

    private void showProblem(String message) {
        Dom.setText(problem, message == null ? "" : message);
        problem.getStyle().setProperty("display", message == null ? "none" : "");
    }
}
