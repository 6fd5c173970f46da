package dev.codeinterp.server.session;

/**
 * Where a client fetches a session's workspace file. The API owns its paths and hands an
 * implementation in through the composition root; sessions only name the file.
 */
@FunctionalInterface
public interface FileLinks {
    String url(String sessionId, String fileName);
}
