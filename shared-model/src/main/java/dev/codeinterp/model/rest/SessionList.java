package dev.codeinterp.model.rest;

import java.util.List;

/**
 * The answer of {@code GET /api/v1/sessions}: a page of the API key's own open sessions, each as
 * {@code GET /api/v1/sessions/{id}} describes it, the most recently active first, and {@code next},
 * the cursor that asks for the page after it ({@code ?after=}), or null on the last page. No token
 * is listed: the owning key itself opens them (docs/protocol.md, "A key's sessions").
 */
public record SessionList(List<SessionState> sessions, String next) {
}
