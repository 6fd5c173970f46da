package dev.codeinterp.server.session;

/** The session runs on another node of the cluster; {@code node} is which, for the request to be sent there. */
public final class SessionElsewhereException extends RuntimeException {
    private final String node;

    public SessionElsewhereException(String node) {
        super("this session runs on node " + node);
        this.node = node;
    }

    public String node() {
        return node;
    }
}
