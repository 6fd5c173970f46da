package dev.codeinterp.model.notebook;

import java.util.List;

/**
 * What an imported notebook gives a new conversation: its code cells in order (none run yet), and
 * how many other cells (markdown, raw) and saved outputs were left out, so the UI can say so.
 */
public record ImportedNotebook(List<NotebookCell> cells, int skippedCells, int cellsWithOutputs) {
}
