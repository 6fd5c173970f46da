package dev.codeinterp.model.rest;

import dev.codeinterp.model.SessionEvent;

import java.util.List;

/**
 * The answer of {@code GET /api/v1/sessions/{id}/events?after=N}: the stored events after N (one
 * page), and the newest seq that exists now.
 */
public record EventHistory(String sessionId, List<SessionEvent> events, long lastSeq) {
}
