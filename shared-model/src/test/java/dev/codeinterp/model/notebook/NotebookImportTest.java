package dev.codeinterp.model.notebook;

import dev.codeinterp.model.Language;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NotebookImportTest {
    private static String notebook(String metadata, String cells) {
        return "{\"nbformat\": 4, \"nbformat_minor\": 5, \"metadata\": " + metadata + ", \"cells\": [" + cells + "]}";
    }

    private static final String PY = "{\"kernelspec\": {\"name\": \"python3\", \"display_name\": \"Python 3\", \"language\": \"python\"}}";

    @Test
    void code_cells_are_taken_in_order_and_other_cells_are_counted() {
        ImportedNotebook nb = NotebookImport.read(notebook(PY,
                "{\"cell_type\": \"markdown\", \"metadata\": {}, \"source\": \"# Title\"},"
                        + "{\"cell_type\": \"code\", \"metadata\": {}, \"source\": [\"x = 1\\n\", \"x + 1\"], \"outputs\": [], \"execution_count\": null},"
                        + "{\"cell_type\": \"raw\", \"metadata\": {}, \"source\": \"raw\"},"
                        + "{\"cell_type\": \"code\", \"metadata\": {}, \"source\": \"print(x)\", \"outputs\": [], \"execution_count\": 2}"));
        assertThat(nb.cells()).containsExactly(new NotebookCell("x = 1\nx + 1", Language.PYTHON),
                new NotebookCell("print(x)", Language.PYTHON));
        assertThat(nb.skippedCells()).isEqualTo(2);
        assertThat(nb.cellsWithOutputs()).isZero();
    }

    @Test
    void saved_outputs_are_never_taken_even_with_script_in_them() {
        ImportedNotebook nb = NotebookImport.read(notebook(PY,
                "{\"cell_type\": \"code\", \"metadata\": {}, \"source\": \"1\", \"execution_count\": 1, \"outputs\": ["
                        + "{\"output_type\": \"display_data\", \"metadata\": {}, \"data\": {\"text/html\": \"<script>parent.pwned=1</script>\","
                        + " \"application/javascript\": \"parent.pwned=1\"}}]}"));
        assertThat(nb.cells()).containsExactly(new NotebookCell("1", Language.PYTHON));
        assertThat(nb.cellsWithOutputs()).isEqualTo(1);
        assertThat(nb.toString()).doesNotContain("pwned");
    }

    @Test
    void the_language_comes_from_the_cell_then_the_kernelspec_then_language_info() {
        String js = "{\"kernelspec\": {\"name\": \"javascript\", \"display_name\": \"JS\"}, \"language_info\": {\"name\": \"javascript\"}}";
        ImportedNotebook nb = NotebookImport.read(notebook(js,
                "{\"cell_type\": \"code\", \"metadata\": {}, \"source\": \"1\", \"outputs\": [], \"execution_count\": null},"
                        + "{\"cell_type\": \"code\", \"metadata\": {\"codeinterp\": {\"language\": \"bash\"}}, \"source\": \"ls\", \"outputs\": [], \"execution_count\": null}"));
        assertThat(nb.cells()).extracting(NotebookCell::language).containsExactly(Language.JAVASCRIPT, Language.BASH);
        assertThat(NotebookImport.read(notebook("{}", "{\"cell_type\": \"code\", \"source\": \"1\"}")).cells())
                .extracting(NotebookCell::language).containsExactly(Language.PYTHON);
    }

    @Test
    void a_notebook_in_another_language_is_refused_by_name() {
        String r = "{\"kernelspec\": {\"name\": \"ir\", \"display_name\": \"R\", \"language\": \"R\"}}";
        assertThatThrownBy(() -> NotebookImport.read(notebook(r, "{\"cell_type\": \"code\", \"source\": \"1\"}")))
                .isInstanceOf(NotebookException.class).hasMessageContaining("written in R");
    }

    @Test
    void malformed_json_is_refused_as_not_a_notebook() {
        assertThatThrownBy(() -> NotebookImport.read("{\"nbformat\": 4, \"cells\": [")).isInstanceOf(NotebookException.class)
                .hasMessageStartingWith("This file is not a notebook: it is not valid JSON");
        assertThatThrownBy(() -> NotebookImport.read("[1, 2]")).hasMessageContaining("a notebook is a JSON object");
        assertThatThrownBy(() -> NotebookImport.read("[".repeat(100_000))).isInstanceOf(NotebookException.class);
    }

    @Test
    void other_nbformat_versions_are_refused_with_what_to_do() {
        assertThatThrownBy(() -> NotebookImport.read("{\"nbformat\": 3, \"worksheets\": []}"))
                .isInstanceOf(NotebookException.class).hasMessageContaining("nbformat 3").hasMessageContaining("save it to convert");
        assertThatThrownBy(() -> NotebookImport.read("{\"nbformat\": 5, \"cells\": []}")).hasMessageContaining("newer");
        assertThatThrownBy(() -> NotebookImport.read("{\"cells\": []}")).hasMessageContaining("no 'nbformat'");
        assertThatThrownBy(() -> NotebookImport.read("{\"nbformat\": \"4\", \"cells\": []}")).hasMessageContaining("not a version number");
    }

    @Test
    void a_notebook_without_code_cells_or_with_unknown_cells_is_refused() {
        assertThatThrownBy(() -> NotebookImport.read(notebook(PY, "{\"cell_type\": \"markdown\", \"source\": \"hi\"}")))
                .hasMessageContaining("no code cells");
        assertThatThrownBy(() -> NotebookImport.read(notebook(PY, ""))).hasMessageContaining("no cells");
        assertThatThrownBy(() -> NotebookImport.read(notebook(PY, "{\"cell_type\": \"widget\", \"source\": \"x\"}")))
                .hasMessageContaining("Cell 1 has cell_type 'widget'");
        assertThatThrownBy(() -> NotebookImport.read(notebook(PY, "{\"cell_type\": \"code\", \"source\": [1, 2]}")))
                .hasMessageContaining("Cell 1's source is not text");
        assertThatThrownBy(() -> NotebookImport.read(notebook(PY, "7"))).hasMessageContaining("Cell 1 is not a JSON object");
        assertThatThrownBy(() -> NotebookImport.read("{\"nbformat\": 4, \"cells\": {}}")).hasMessageContaining("no list of cells");
    }

    @Test
    void huge_notebooks_are_refused() {
        String manyCells = String.join(",", java.util.Collections.nCopies(NotebookImport.MAX_CELLS + 1,
                "{\"cell_type\": \"code\", \"source\": \"1\"}"));
        assertThatThrownBy(() -> NotebookImport.read(notebook(PY, manyCells))).hasMessageContaining("at most 2000");
        String huge = notebook(PY, "{\"cell_type\": \"code\", \"source\": \"" + "x".repeat(NotebookImport.MAX_BYTES) + "\"}");
        assertThatThrownBy(() -> NotebookImport.read(huge)).hasMessageContaining("larger than 20 MiB");
    }
}
