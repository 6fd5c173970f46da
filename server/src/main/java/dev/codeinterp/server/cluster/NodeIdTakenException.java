package dev.codeinterp.server.cluster;

/** Another live server holds this node id (registered from another data directory): this one must not start as it. */
public final class NodeIdTakenException extends RuntimeException {
    public NodeIdTakenException(String message) {
        super(message);
    }
}
