package dev.codeinterp.web.view;

import dev.codeinterp.model.notebook.ImportedNotebook;
import dev.codeinterp.model.notebook.NotebookException;
import dev.codeinterp.model.notebook.NotebookImport;
import dev.codeinterp.web.bindings.FileTransfer;
import dev.codeinterp.web.bindings.UserFiles;
import dev.codeinterp.web.session.Interpreter;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSObject;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.function.Supplier;

/**
 * Notebooks in and out: "Export .ipynb" saves the conversation as a Jupyter notebook (the mode
 * builds it: the server from its store, local mode from IndexedDB); "Import .ipynb" reads a notebook
 * the user picks into code cells for a new conversation. The file is read here and checked by
 * shared-model's {@link NotebookImport}; nothing in it is shown as markup or run.
 */
public final class NotebookButtons {
    public interface Importer {
        /** A notebook was read: start a conversation with its cells, not run yet. */
        void importNotebook(ImportedNotebook notebook, String fileName);
    }

    private final HTMLElement root = Dom.el("div", "notebook-buttons");
    private final StatusLine status;
    private final Supplier<Interpreter> conversation;
    private final Importer importer;

    /** {@code conversation}: the interpreter of the conversation shown, or null while there is none. */
    public NotebookButtons(StatusLine status, Supplier<Interpreter> conversation, Importer importer) {
        this.status = status;
        this.conversation = conversation;
        this.importer = importer;
        HTMLElement export = Dom.button("Export .ipynb", "export-notebook", "Download this conversation as a Jupyter notebook");
        export.getClassList().add("small");
        export.addEventListener("click", e -> export());
        HTMLElement picker = Dom.el("label", "btn small upload-button");
        picker.setAttribute("title", "Start a new conversation with a notebook's code cells (they run when you say so)");
        picker.appendChild(Dom.document().createTextNode("Import .ipynb"));
        HTMLElement input = Dom.el("input", "visually-hidden");
        input.setAttribute("type", "file");
        input.setAttribute("accept", ".ipynb,application/x-ipynb+json");
        input.setAttribute("data-testid", "import-notebook");
        input.setAttribute("aria-label", "Import a Jupyter notebook");
        UserFiles.onFilesPicked(input, this::read);
        picker.appendChild(input);
        root.appendChild(export);
        root.appendChild(picker);
    }

    public HTMLElement root() {
        return root;
    }

    private void export() {
        Interpreter interpreter = conversation.get();
        if (interpreter == null) {
            status.problem("There is no conversation to export yet.");
            return;
        }
        interpreter.notebook((url, name, problem) -> {
            if (url != null) {
                FileTransfer.saveAs(url, name);
            } else {
                status.problem(problem);
            }
        });
    }

    private void read(JSObject file) {
        String name = FileTransfer.name(file);
        if (FileTransfer.size(file) > NotebookImport.MAX_BYTES) {
            status.problem(name + ": " + NotebookImport.tooLarge().getMessage());
            return;
        }
        UserFiles.readBytes(file, (bytes, error) -> {
            if (bytes == null) {
                status.problem(name + " could not be read: " + error);
                return;
            }
            ImportedNotebook notebook;
            try {
                notebook = NotebookImport.read(utf8(bytes));
            } catch (NotebookException e) {
                status.problem(name + ": " + e.getMessage());
                return;
            }
            importer.importNotebook(notebook, name);
        });
    }

    @JSBody(params = "bytes", script = "return new TextDecoder('utf-8').decode(bytes);")
    private static native String utf8(JSObject bytes);
}
