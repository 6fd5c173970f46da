package dev.codeinterp.server.sandbox;

import com.github.dockerjava.transport.DockerHttpClient;
import org.junit.jupiter.api.Test;

import java.io.InputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Apache HttpClient shuts its connection pool down for good when a request ends in an Error rather
 * than an exception (HTTPCLIENT-2133): on a host out of threads ("unable to create native thread")
 * docker-java then answered every later call with "Connection pool shut down", and the server could
 * create, start or remove no sandbox again until restarted. Here the Error is thrown, for real, from
 * inside the HTTP client while it writes a request's body.
 */
class PoolShutDownTest {

    @Test
    void the_engine_is_reached_again_after_an_error_shut_the_pool_down() {
        try (DockerConnections docker = DockerConnections.open(null)) {
            assertThat(docker.control().pingCmd().exec()).isNull();

            assertThatThrownBy(() -> docker.controlHttp().execute(requestWhoseBodyThrows()).close())
                    .isInstanceOf(OutOfMemoryError.class);

            docker.control().pingCmd().exec();
            assertThat(docker.control().listContainersCmd().withLimit(1).exec()).isNotNull();
            assertThat(docker.streams().infoCmd().exec().getServerVersion()).isNotBlank();
        }
    }

    private static DockerHttpClient.Request requestWhoseBodyThrows() {
        return DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.POST)
                .path("/containers/create")
                .body(new InputStream() {
                    @Override
                    public int read() {
                        throw new OutOfMemoryError("unable to create native thread (thrown by the test)");
                    }
                })
                .build();
    }
}
