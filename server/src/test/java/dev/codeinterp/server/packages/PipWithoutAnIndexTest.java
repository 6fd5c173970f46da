package dev.codeinterp.server.packages;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code %pip install humanize} on a server whose package index is unreachable (as on a machine
 * without PyPI), end to end (runc): the cell fails within the fetch timeout with one line naming the
 * index and the setting that points elsewhere, and nothing of pip's own output reaches the person.
 */
class PipWithoutAnIndexTest {

    @Test
    void pip_install_against_an_unreachable_index_ends_the_cell_with_one_line_naming_the_index_and_its_setting() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port + "/simple";
        try (TestApp app = TestApp.start("runc", Map.of("PYTHON_INDEX_URL", url, "POOL_SIZE", "0", "PACKAGE_FETCH_TIMEOUT", "30s"))) {
            TestApp.SessionRef s = app.createSession();
            long t0 = System.nanoTime();
            TestApp.Response r = app.post("/api/v1/sessions/" + s.id() + "/execute",
                    Json.write(Map.of("code", "%pip install humanize", "timeout", 60.0)), s.token());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            JsonObject answer = r.json();
            assertThat(answer.string("status")).isEqualTo("error");
            assertThat(ms).as("within the fetch timeout").isLessThan(30_000);
            JsonObject error = answer.object("error");
            assertThat(error.string("name")).isEqualTo("PackageFetchError");
            assertThat(error.string("value")).isEqualTo("the Python package index " + url
                    + " cannot be reached from this server (connection refused); the operator can point CODEINTERP_PYTHON_INDEX_URL at one it reaches");
            assertThat(answer.string("stdout") + answer.string("stderr") + error.string("traceback"))
                    .doesNotContain("Retry", "urllib3", "object at 0x", "pip._vendor", "Looking in indexes");
            assertThat(app.execute(s, "print('next')", 10.0).string("stdout")).as("the session goes on").isEqualTo("next\n");
        }
    }
}
