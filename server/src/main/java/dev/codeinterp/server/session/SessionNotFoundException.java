package dev.codeinterp.server.session;

/** No such session, or the token does not match: the two are deliberately indistinguishable. */
public final class SessionNotFoundException extends RuntimeException {
    public SessionNotFoundException() {
        super("no such session");
    }
}
