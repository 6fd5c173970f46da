package dev.codeinterp.server.store;

import dev.codeinterp.model.Event;

/** An event of a session's cell on its way to the store, which gives it its seq ({@link EventRepository#record}). */
public record NewEvent(String executionId, long timestampMs, Event event) {
}
