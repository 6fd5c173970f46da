package dev.codeinterp.model.notebook;

import java.util.LinkedHashMap;
import java.util.Map;

/** A piece of an assistant turn on its way to a notebook markdown cell: the person's prompt, or the assistant's words. */
final class NotebookMarkdownDraft {
    /** "user" for a prompt, "assistant" for the answer (cell metadata.codeinterp.role). */
    private final String role;
    private final StringBuilder source = new StringBuilder();

    NotebookMarkdownDraft(String role, String text) {
        this.role = role;
        source.append(text);
    }

    void append(String text) {
        source.append(text);
    }

    boolean isBlank() {
        return source.toString().isBlank();
    }

    Map<String, Object> toCell(String id) {
        Map<String, Object> ours = new LinkedHashMap<>();
        ours.put("role", role);
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("codeinterp", ours);
        Map<String, Object> cell = new LinkedHashMap<>();
        cell.put("id", id);
        cell.put("cell_type", "markdown");
        cell.put("metadata", metadata);
        cell.put("source", source.toString());
        return cell;
    }
}
