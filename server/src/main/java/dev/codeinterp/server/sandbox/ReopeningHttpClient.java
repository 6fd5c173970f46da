package dev.codeinterp.server.sandbox;

import com.github.dockerjava.transport.DockerHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * Opens a new HTTP client when the current one's connection pool has been shut down under it.
 * Apache HttpClient (inside docker-java's zerodep transport) shuts its pool down for good when a
 * request ends in an Error, not an exception (HTTPCLIENT-2133, by design): a host that ran out of
 * threads once ("unable to create native thread") left every later engine call failing with
 * "Connection pool shut down" until the server was restarted. A call refused that way never reached
 * the engine (the pool refuses at lease), so it is sent again, once, on the new client.
 */
final class ReopeningHttpClient implements DockerHttpClient {
    private static final Logger log = LoggerFactory.getLogger(ReopeningHttpClient.class);

    private final String name;
    private final Supplier<DockerHttpClient> open;
    private volatile DockerHttpClient current;
    private volatile boolean closed;

    ReopeningHttpClient(String name, Supplier<DockerHttpClient> open) {
        this.name = name;
        this.open = open;
        this.current = open.get();
    }

    @Override
    public Response execute(Request request) {
        DockerHttpClient used = current;
        try {
            return used.execute(request);
        } catch (IllegalStateException e) {
            if (closed || !poolShutDown(e)) {
                throw e;
            }
            return reopened(used).execute(request);
        }
    }

    private synchronized DockerHttpClient reopened(DockerHttpClient broken) {
        if (current == broken) {
            log.warn("the {} connections to the Docker engine had been shut down (an Error in an earlier call); opening new ones", name);
            current = open.get();
            closeQuietly(broken);
        }
        return current;
    }

    static boolean poolShutDown(IllegalStateException e) {
        return e.getMessage() != null && e.getMessage().contains("pool shut down");
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(current);
    }

    private static void closeQuietly(DockerHttpClient client) {
        try {
            client.close();
        } catch (IOException | RuntimeException ignored) {
            // it is being replaced or closed anyway
        }
    }
}
