package dev.codeinterp.model.rest;

/**
 * The 201 answer of {@code POST /api/v1/sessions}: the session's id, the token that guards it (sent as
 * {@code Authorization: Bearer} and in the WebSocket's hello), and the runtime it runs under.
 */
public record SessionCreated(String id, String token, String runtime) {
}
