package dev.codeinterp.web.view;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.notebook.ImportedNotebook;
import dev.codeinterp.model.notebook.NotebookCell;
import org.teavm.jso.dom.html.HTMLElement;

import java.util.ArrayList;
import java.util.List;

/**
 * An imported notebook's code cells under the conversation, not run until the user presses "Run all".
 * Run all sends one cell at a time, the next when the conversation is idle again (so a long notebook
 * never meets the session's queue limit), and stops at the first cell that does not end ok, as
 * Jupyter's Run All does; the cells not run stay listed. Code is shown as text only.
 */
public final class ImportedCells {
    public interface Runner {
        /** Sends the cell; returns why it cannot be run here, or null when it was sent. */
        String run(NotebookCell cell);
    }

    private final HTMLElement root = Dom.el("section", "imported-notebook");
    private final HTMLElement note;
    private final HTMLElement list = Dom.el("div", "imported-cells");
    private final List<NotebookCell> cells;
    private final List<HTMLElement> views = new ArrayList<>();
    private final Runner runner;
    private boolean running;

    public ImportedCells(ImportedNotebook notebook, String fileName, Runner runner) {
        this.cells = new ArrayList<>(notebook.cells());
        this.runner = runner;
        root.setAttribute("data-testid", "imported-notebook");
        root.setAttribute("aria-label", "Imported notebook cells, not run yet");
        note = Dom.text("p", "imported-note", describe(notebook, fileName));
        note.setAttribute("data-testid", "imported-note");
        HTMLElement runAll = Dom.button("Run all", "run-all", "Run the imported cells in order, stopping at the first error");
        runAll.getClassList().add("primary");
        runAll.addEventListener("click", e -> runAll());
        HTMLElement discard = Dom.button("Discard", "discard-import", "Remove the imported cells that have not run");
        discard.addEventListener("click", e -> remove());
        HTMLElement buttons = Dom.el("div", "imported-buttons");
        buttons.appendChild(runAll);
        buttons.appendChild(discard);
        root.appendChild(note);
        root.appendChild(buttons);
        root.appendChild(list);
        for (NotebookCell cell : cells) {
            HTMLElement view = Dom.el("div", "imported-cell");
            view.setAttribute("data-testid", "imported-cell");
            view.appendChild(Dom.text("span", "imported-language", cell.language().wire()));
            view.appendChild(Dom.text("pre", "code", cell.code()));
            views.add(view);
            list.appendChild(view);
        }
    }

    public HTMLElement root() {
        return root;
    }

    private static String describe(ImportedNotebook notebook, String fileName) {
        int n = notebook.cells().size();
        StringBuilder s = new StringBuilder("Imported " + fileName + ": " + n + (n == 1 ? " code cell" : " code cells")
                + ", not run yet.");
        if (notebook.skippedCells() > 0) {
            s.append(" ").append(notebook.skippedCells()).append(notebook.skippedCells() == 1 ? " markdown or raw cell was"
                    : " markdown or raw cells were").append(" left out.");
        }
        if (notebook.cellsWithOutputs() > 0) {
            s.append(" Outputs saved in the file are not shown: run the cells to see them.");
        }
        return s.toString();
    }

    private void runAll() {
        if (!running) {
            running = true;
            next();
        }
    }

    private void next() {
        if (cells.isEmpty()) {
            running = false;
            remove();
            return;
        }
        String refused = runner.run(cells.get(0));
        if (refused != null) {
            stop(refused);
            return;
        }
        cells.remove(0);
        list.removeChild(views.remove(0));
    }

    /** A cell of the conversation finished; {@code busy}: others still wait or run. */
    public void onFinished(Event.Finished finished, boolean busy) {
        if (!running) {
            return;
        }
        if (finished.status() != Status.OK && cells.isEmpty()) {
            remove();
        } else if (finished.status() != Status.OK) {
            stop("Run all stopped: a cell ended with " + finished.status().wire() + ". The " + cells.size()
                    + (cells.size() == 1 ? " cell" : " cells") + " not run yet " + (cells.size() == 1 ? "is" : "are") + " below.");
        } else if (!busy) {
            next();
        }
    }

    private void stop(String why) {
        running = false;
        Dom.setText(note, why);
    }

    public void remove() {
        running = false;
        if (root.getParentNode() != null) {
            root.getParentNode().removeChild(root);
        }
    }
}
