package dev.codeinterp.server.session;

/** The session runs on another node of the cluster, named in the message. */
public final class SessionElsewhereException extends RuntimeException {
    public SessionElsewhereException(String node) {
        super("this session runs on node " + node);
    }
}
