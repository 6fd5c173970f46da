package dev.codeinterp.model.notebook;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads an uploaded .ipynb into code cells to run later. Every file is hostile: it is read with the
 * bounded JSON reader, checked to be nbformat 4, and only the code of code cells (and their
 * language) is taken; saved outputs are never read, so nothing in the file is shown or run until
 * the user runs the cells. Each refusal is a {@link NotebookException} that says what is wrong.
 */
public final class NotebookImport {
    /** Larger files are refused before they are read: a notebook's code is small, its outputs are not taken. */
    public static final int MAX_BYTES = 20 << 20;
    public static final int MAX_CELLS = 2000;

    private NotebookImport() {
    }

    public static ImportedNotebook read(String text) {
        if (text.length() > MAX_BYTES) {
            throw tooLarge();
        }
        Object parsed;
        try {
            parsed = Json.parse(text);
        } catch (JsonException e) {
            throw new NotebookException("This file is not a notebook: it is not valid JSON (" + e.getMessage() + ").");
        }
        if (!(parsed instanceof Map)) {
            throw new NotebookException("This file is not a notebook: a notebook is a JSON object.");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> notebook = (Map<String, Object>) parsed;
        checkFormat(notebook.get("nbformat"));
        Language language = notebookLanguage(notebook.get("metadata"));
        Object cellList = notebook.get("cells");
        if (!(cellList instanceof List)) {
            throw new NotebookException("This notebook has no list of cells.");
        }
        List<?> cells = (List<?>) cellList;
        if (cells.size() > MAX_CELLS) {
            throw new NotebookException("This notebook has " + cells.size() + " cells; at most " + MAX_CELLS + " can be imported.");
        }
        List<NotebookCell> code = new ArrayList<>();
        int skipped = 0;
        int withOutputs = 0;
        for (int i = 0; i < cells.size(); i++) {
            Map<String, Object> cell = object(cells.get(i), "Cell " + (i + 1) + " is not a JSON object.");
            Object type = cell.get("cell_type");
            if ("code".equals(type)) {
                code.add(new NotebookCell(source(cell.get("source"), i), cellLanguage(cell.get("metadata"), language, i)));
                if (cell.get("outputs") instanceof List && !((List<?>) cell.get("outputs")).isEmpty()) {
                    withOutputs++;
                }
            } else if ("markdown".equals(type) || "raw".equals(type)) {
                skipped++;
            } else {
                throw new NotebookException("Cell " + (i + 1) + " has cell_type " + describe(type)
                        + "; a notebook's cells are code, markdown or raw.");
            }
        }
        if (code.isEmpty()) {
            throw new NotebookException(skipped == 0 ? "This notebook has no cells." : "This notebook has no code cells (only "
                    + skipped + " markdown or raw " + (skipped == 1 ? "cell" : "cells") + "): there is nothing to run.");
        }
        return new ImportedNotebook(code, skipped, withOutputs);
    }

    public static NotebookException tooLarge() {
        return new NotebookException("This notebook is larger than " + (MAX_BYTES >> 20) + " MiB; save it without outputs "
                + "(Jupyter: Edit → Clear Outputs of All Cells) and import it again.");
    }

    private static void checkFormat(Object nbformat) {
        if (nbformat == null) {
            throw new NotebookException("This file is not a Jupyter notebook: it has no 'nbformat'.");
        }
        if (!(nbformat instanceof Long)) {
            throw new NotebookException("This notebook's 'nbformat' is " + describe(nbformat) + ", not a version number.");
        }
        long version = (Long) nbformat;
        if (version < NotebookExport.NBFORMAT) {
            throw new NotebookException("This is an nbformat " + version + " notebook; only nbformat 4 can be imported. "
                    + "Open it in Jupyter and save it to convert it.");
        }
        if (version > NotebookExport.NBFORMAT) {
            throw new NotebookException("This is an nbformat " + version + " notebook, newer than the nbformat 4 this app reads.");
        }
    }

    /** The notebook's language from its metadata; Python when it names none. */
    private static Language notebookLanguage(Object metadata) {
        if (!(metadata instanceof Map)) {
            return Language.PYTHON;
        }
        Map<?, ?> m = (Map<?, ?>) metadata;
        String name = null;
        if (m.get("kernelspec") instanceof Map && ((Map<?, ?>) m.get("kernelspec")).get("language") instanceof String) {
            name = (String) ((Map<?, ?>) m.get("kernelspec")).get("language");
        } else if (m.get("language_info") instanceof Map && ((Map<?, ?>) m.get("language_info")).get("name") instanceof String) {
            name = (String) ((Map<?, ?>) m.get("language_info")).get("name");
        } else if (m.get("kernelspec") instanceof Map && ((Map<?, ?>) m.get("kernelspec")).get("name") instanceof String) {
            name = (String) ((Map<?, ?>) m.get("kernelspec")).get("name");
        }
        if (name == null) {
            return Language.PYTHON;
        }
        Language language = NotebookLanguage.of(name);
        if (language == null) {
            throw new NotebookException("This notebook is written in " + clip(name) + "; cells here run in Python, JavaScript or bash.");
        }
        return language;
    }

    /** A cell's own language ({@code metadata.codeinterp.language}, as we export it), else the notebook's. */
    private static Language cellLanguage(Object metadata, Language fallback, int index) {
        if (!(metadata instanceof Map) || !(((Map<?, ?>) metadata).get("codeinterp") instanceof Map)) {
            return fallback;
        }
        Object name = ((Map<?, ?>) ((Map<?, ?>) metadata).get("codeinterp")).get("language");
        if (!(name instanceof String)) {
            return fallback;
        }
        Language language = NotebookLanguage.of((String) name);
        if (language == null) {
            throw new NotebookException("Cell " + (index + 1) + " is in " + clip((String) name)
                    + "; cells here run in Python, JavaScript or bash.");
        }
        return language;
    }

    /** nbformat's multiline string: one string, or a list of strings joined as they are. */
    private static String source(Object source, int index) {
        if (source instanceof String) {
            return (String) source;
        }
        if (source instanceof List) {
            StringBuilder joined = new StringBuilder();
            for (Object line : (List<?>) source) {
                if (!(line instanceof String)) {
                    throw new NotebookException("Cell " + (index + 1) + "'s source is not text.");
                }
                joined.append((String) line);
            }
            return joined.toString();
        }
        throw new NotebookException("Cell " + (index + 1) + " has no source text.");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value, String otherwise) {
        if (!(value instanceof Map)) {
            throw new NotebookException(otherwise);
        }
        return (Map<String, Object>) value;
    }

    private static String describe(Object value) {
        if (value == null) {
            return "missing";
        }
        return value instanceof String ? "'" + clip((String) value) + "'" : clip(Json.write(value));
    }

    /** Names from the file go into messages shortened, so a hostile file cannot fill the screen. */
    private static String clip(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }
}
