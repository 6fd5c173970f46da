package dev.codeinterp.server.sandbox;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.transport.DockerHttpClient;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;

import java.io.IOException;
import java.time.Duration;

/**
 * Two docker-java clients over the same engine socket, so that a long-lived stream never holds what a
 * control call needs. Every attach keeps its HTTP connection for the sandbox's whole life (docker-java
 * hijacks it for stdin/stdout); from one shared pool of 64, ~60 sandboxes left every other call waiting
 * out the pool's 3-minute request timeout. So:
 * <ul>
 *   <li>{@link #control()}: create, start, inspect, remove, list, info. A small pool with a response
 *       timeout, used only by short calls, so a call waits at most for another short call.</li>
 *   <li>{@link #streams()}: attach only. Unbounded in practice (one Unix-socket connection per
 *       sandbox, closed when the sandbox goes), and no response timeout: an idle sandbox is silent
 *       for hours. Each stream costs two threads (docker-java's reader and stdin copier).</li>
 * </ul>
 * A control call that went out on a connection the engine had closed (it restarted) is sent again
 * ({@link StaleConnectionRetry}); an attach is not (its input is a live stream). Either pool, once shut
 * down by an Error in a call, is opened anew ({@link ReopeningHttpClient}).
 */
final class DockerConnections implements AutoCloseable {
    static final int CONTROL_CONNECTIONS = 32;
    static final Duration CONTROL_RESPONSE_TIMEOUT = Duration.ofSeconds(90);
    /** More than any number of sandboxes this host can hold: the admission limits bound sandboxes, not this. */
    static final int STREAM_CONNECTIONS = 100_000;

    private final DockerClient control;
    private final DockerHttpClient controlHttp;
    private final DockerClient streams;
    private final boolean onThisHost;

    private DockerConnections(DockerClient control, DockerHttpClient controlHttp, DockerClient streams, boolean onThisHost) {
        this.control = control;
        this.controlHttp = controlHttp;
        this.streams = streams;
        this.onThisHost = onThisHost;
    }

    /** Clients for {@code dockerHost} (e.g. unix:///var/run/docker.sock), or DOCKER_HOST / the local socket when null. */
    static DockerConnections open(String dockerHost) {
        DefaultDockerClientConfig.Builder builder = DefaultDockerClientConfig.createDefaultConfigBuilder();
        if (dockerHost != null) {
            builder.withDockerHost(dockerHost);
        }
        DefaultDockerClientConfig config = builder.build();
        DockerHttpClient controlHttp = new ReopeningHttpClient("control", () -> new ZerodepDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost())
                .maxConnections(CONTROL_CONNECTIONS)
                .connectionTimeout(Duration.ofSeconds(5))
                .responseTimeout(CONTROL_RESPONSE_TIMEOUT)
                .build());
        DockerHttpClient streamHttp = new ReopeningHttpClient("stream", () -> new ZerodepDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost())
                .maxConnections(STREAM_CONNECTIONS)
                .connectionTimeout(Duration.ofSeconds(5))
                .build());
        DockerHttpClient retrying = new StaleConnectionRetry(controlHttp, CONTROL_CONNECTIONS);
        return new DockerConnections(
                DockerClientImpl.getInstance(config, retrying), retrying,
                DockerClientImpl.getInstance(config, streamHttp),
                "unix".equals(config.getDockerHost().getScheme()));
    }

    /** Whether the engine is reached through a Unix socket, so it runs on this host and sees our file system. */
    boolean onThisHost() {
        return onThisHost;
    }

    DockerClient control() {
        return control;
    }

    /** The control pool as raw HTTP, for the engine routes docker-java lacks ({@link EngineCheckpoints}). */
    DockerHttpClient controlHttp() {
        return controlHttp;
    }

    DockerClient streams() {
        return streams;
    }

    @Override
    public void close() {
        closeQuietly(streams);
        closeQuietly(control);
    }

    private static void closeQuietly(DockerClient client) {
        try {
            client.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
