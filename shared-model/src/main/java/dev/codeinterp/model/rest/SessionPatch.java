package dev.codeinterp.model.rest;

/**
 * The body of {@code PATCH /api/v1/sessions/{id}}: {@code {"title": "..."}}, a string (any other
 * type, or none, is refused). The server keeps it as {@link dev.codeinterp.model.rules.SessionTitles#clean}
 * makes it; one that cleans to nothing clears the title.
 */
public record SessionPatch(String title) {
}
