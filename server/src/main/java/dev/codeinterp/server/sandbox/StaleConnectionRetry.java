package dev.codeinterp.server.sandbox;

import com.github.dockerjava.transport.DockerHttpClient;

import java.io.IOException;

/**
 * Sends a request again when it went out on a pooled connection the engine had already closed.
 * docker-java's client never checks a pooled connection before reuse, so after dockerd restarts
 * every idle connection in the pool is dead, and each POST (create, start: not retried by the HTTP
 * client, which retries only idempotent methods) failed with "Broken pipe", so a session's first
 * cell after an engine restart ended in an error. A dead connection is discarded when it fails,
 * so at most one try per pooled connection is lost. Only requests that can be sent again are:
 * a body given as bytes (docker-java's JSON), never a stream or a hijacked attach.
 */
final class StaleConnectionRetry implements DockerHttpClient {
    private final DockerHttpClient delegate;
    private final int maxTries;

    /** {@code pooled}: how many connections the delegate's pool may hold, so how many may be dead. */
    StaleConnectionRetry(DockerHttpClient delegate, int pooled) {
        this.delegate = delegate;
        this.maxTries = pooled + 1;
    }

    @Override
    public Response execute(Request request) {
        boolean replayable = request.hijackedInput() == null && (request.bodyBytes() != null || request.body() == null);
        for (int tried = 1; ; tried++) {
            try {
                return delegate.execute(request);
            } catch (RuntimeException e) {
                if (!replayable || tried >= maxTries || !closedByEngine(e)) {
                    throw e;
                }
            }
        }
    }

    /**
     * The engine had closed the connection before this request: writing it broke the pipe, or no
     * response came on it at all. Not a refused connect (the engine is down: trying again is no use).
     */
    static boolean closedByEngine(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getClass().getSimpleName().equals("NoHttpResponseException")) {
                return true;
            }
            if (t instanceof IOException && t.getMessage() != null
                    && (t.getMessage().contains("Broken pipe") || t.getMessage().contains("Connection reset"))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
