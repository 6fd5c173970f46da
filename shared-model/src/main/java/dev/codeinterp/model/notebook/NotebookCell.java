package dev.codeinterp.model.notebook;

import dev.codeinterp.model.Language;

/** A code cell taken from an imported notebook: what to run and in which language. Its outputs are never taken. */
public record NotebookCell(String code, Language language) {
}
