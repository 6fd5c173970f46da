package dev.codeinterp.server.session;

/** A session just made (created or forked) and its token, shown this once and stored only as a hash. */
public record CreatedSession(Session session, String token) {
}
