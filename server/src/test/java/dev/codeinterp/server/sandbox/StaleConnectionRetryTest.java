package dev.codeinterp.server.sandbox;

import com.github.dockerjava.api.command.CreateContainerResponse;
import org.junit.jupiter.api.Test;

import java.io.Closeable;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import static java.net.StandardProtocolFamily.UNIX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The real engine behind a socket that can hang up on every open connection, as dockerd does when
 * it restarts: the control client's pooled connections are then dead, and the next create (a POST,
 * which the HTTP client never retries itself) must still reach the engine.
 */
class StaleConnectionRetryTest {
    private static final String IMAGE = System.getenv().getOrDefault("CODEINTERP_IMAGE", "codeinterp-sandbox:latest");

    @Test
    void a_container_is_created_after_the_engine_hung_up_on_every_pooled_connection() throws Exception {
        Path dir = Files.createTempDirectory("engine-proxy");
        try (EngineProxy proxy = new EngineProxy(dir.resolve("docker.sock"));
             DockerConnections docker = DockerConnections.open("unix://" + proxy.path)) {
            // several connections in the pool, all idle afterwards
            List<Thread> callers = IntStream.range(0, 4)
                    .mapToObj(i -> started(() -> docker.control().listContainersCmd().withLimit(1).exec()))
                    .toList();
            for (Thread t : callers) {
                t.join();
            }
            assertThat(proxy.opened()).isGreaterThanOrEqualTo(1);

            proxy.hangUpAll();

            CreateContainerResponse created = docker.control().createContainerCmd(IMAGE)
                    .withLabels(Map.of("dev.codeinterp.test", "stale-connection")).withCmd("true").exec();
            try {
                assertThat(docker.control().inspectContainerCmd(created.getId()).exec().getId()).isEqualTo(created.getId());
            } finally {
                docker.control().removeContainerCmd(created.getId()).withForce(true).exec();
            }
        } finally {
            Files.deleteIfExists(dir.resolve("docker.sock"));
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void an_engine_that_is_down_is_not_asked_again_and_again() {
        assertThat(StaleConnectionRetry.closedByEngine(new RuntimeException(new SocketException("No such file or directory"))))
                .isFalse();
        assertThat(StaleConnectionRetry.closedByEngine(new RuntimeException(new ConnectException("Connection refused"))))
                .isFalse();
        assertThat(StaleConnectionRetry.closedByEngine(new RuntimeException(new IOException("Broken pipe")))).isTrue();
    }

    @Test
    void a_dead_engine_socket_still_fails_the_call_with_its_reason() throws Exception {
        Path dir = Files.createTempDirectory("engine-gone");
        try (DockerConnections docker = DockerConnections.open("unix://" + dir.resolve("docker.sock"))) {
            assertThatThrownBy(() -> docker.control().createContainerCmd(IMAGE).exec())
                    .hasStackTraceContaining("No such file or directory");
        } finally {
            Files.deleteIfExists(dir);
        }
    }

    private static Thread started(Runnable body) {
        Thread t = new Thread(body);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** A Unix socket that passes bytes to and from the real engine, and can close every connection at once. */
    private static final class EngineProxy implements AutoCloseable {
        private static final Path ENGINE = Path.of("/var/run/docker.sock");
        final Path path;
        private final ServerSocketChannel server;
        private final List<SocketChannel> open = new CopyOnWriteArrayList<>();
        private volatile int opened;

        EngineProxy(Path path) throws IOException {
            this.path = path;
            server = ServerSocketChannel.open(UNIX).bind(UnixDomainSocketAddress.of(path));
            started(this::accept);
        }

        int opened() {
            return opened;
        }

        private void accept() {
            try {
                while (true) {
                    SocketChannel client = server.accept();
                    SocketChannel engine = SocketChannel.open(UnixDomainSocketAddress.of(ENGINE));
                    opened++;
                    open.add(client);
                    open.add(engine);
                    started(() -> pump(client, engine));
                    started(() -> pump(engine, client));
                }
            } catch (IOException closed) {
                // the proxy was closed
            }
        }

        private void pump(SocketChannel from, SocketChannel to) {
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            try {
                while (from.read(buffer) >= 0) {
                    buffer.flip();
                    while (buffer.hasRemaining()) {
                        to.write(buffer);
                    }
                    buffer.clear();
                }
            } catch (IOException hungUp) {
                // one side is gone
            }
            closeQuietly(from);
            closeQuietly(to);
        }

        void hangUpAll() {
            for (SocketChannel c : open) {
                closeQuietly(c);
            }
            open.clear();
        }

        @Override
        public void close() {
            closeQuietly(server);
            hangUpAll();
        }

        private static void closeQuietly(Closeable c) {
            try {
                c.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
