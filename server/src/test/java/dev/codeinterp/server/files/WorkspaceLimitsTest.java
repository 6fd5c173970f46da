package dev.codeinterp.server.files;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The workspace's bounds: ENOSPC inside, the host's disk untouched, oversized uploads refused early. */
class WorkspaceLimitsTest {
    static final long WORKSPACE = 48L << 20;
    static TestApp runc;
    static TestApp runsc;

    @BeforeAll
    static void start() {
        Map<String, String> small = Map.of("WORKSPACE_SIZE", "48m", "POOL_SIZE", "0");
        runc = TestApp.start("runc", small);
        runsc = TestApp.start("runsc", small);
    }

    @AfterAll
    static void stop() {
        runc.close();
        runsc.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"runc", "runsc"})
    void filling_the_workspace_is_enospc_in_the_cell_and_the_hosts_disk_does_not_move(String runtime) throws Exception {
        TestApp app = runtime.equals("runc") ? runc : runsc;
        TestApp.SessionRef s = app.createSession();
        assertThat(app.putFile(s, "keep.csv", "a,b\n1,2\n".getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(201);
        long hostFreeBefore = Files.getFileStore(app.dataDir).getUsableSpace();
        JsonObject r = app.execute(s, String.join("\n",
                "import errno",
                "written = 0",
                "try:",
                "    with open('fill.bin', 'wb') as f:",
                "        while True:",
                "            f.write(b'\\0' * (1 << 20)); f.flush(); written += 1 << 20",
                "except OSError as e:",
                "    print(errno.errorcode[e.errno], written >> 20)"), 60.0);
        long hostFreeAfter = Files.getFileStore(app.dataDir).getUsableSpace();
        String[] out = r.string("stdout").trim().split(" ");
        assertThat(out[0]).as(r.asMap().toString()).isEqualTo("ENOSPC");
        assertThat(Long.parseLong(out[1])).isBetween((WORKSPACE >> 20) - 4, WORKSPACE >> 20);
        // the bytes went to the session's own tmpfs, not to the disk under the data directory
        assertThat(Math.abs(hostFreeBefore - hostFreeAfter)).isLessThan(8L << 20);

        // an upload into the full workspace is refused, and what was there is intact
        assertThat(putHeadOnly(app, s, "more.bin", 4L << 20)).startsWith("HTTP/1.1 507").contains("Delete files to make room");
        assertThat(app.execute(s, "print(open('keep.csv').read().split()[1])", null).string("stdout")).isEqualTo("1,2\n");
        app.delete("/api/v1/sessions/" + s.id(), s.token());
    }

    @Test
    void an_upload_that_declares_150_mib_is_refused_with_413_before_its_body_is_sent() throws Exception {
        TestApp.SessionRef s = runc.createSession();
        assertThat(putHeadOnly(runc, s, "big.bin", 150L << 20)).startsWith("HTTP/1.1 413").contains("the limit is 100 MiB per file");
        runc.delete("/api/v1/sessions/" + s.id(), s.token());
    }

    @Test
    void a_streamed_150_mib_upload_is_cut_off_at_the_limit_and_the_heap_stays_flat() throws Exception {
        TestApp big = TestApp.shared("runc"); // a 1 GiB workspace: the upload limit, not the space, stops it
        TestApp.SessionRef s = big.createSession();
        long before = retainedHeap();
        HttpResponse<byte[]> r;
        try {
            // no Content-Length (chunked): the server counts while it streams to the workspace
            r = big.exchange(big.request("/api/v1/sessions/" + s.id() + "/files/big.bin", s.token())
                    .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new Zeros(150L << 20))).build());
            assertThat(r.statusCode()).isEqualTo(413);
        } catch (IllegalStateException e) {
            // the server may close the connection before the client has sent everything; the answer is then lost,
            // but nothing may have been stored
            assertThat(e).hasRootCauseInstanceOf(java.io.IOException.class);
        }
        long growth = retainedHeap() - before;
        System.out.printf("[figure] heap retained after a 150 MiB streamed upload: %+.1f MiB%n", growth / 1048576.0);
        assertThat(growth).isLessThan(8L << 20);
        JsonObject listing = big.get("/api/v1/sessions/" + s.id() + "/files", s.token()).json();
        assertThat(listing.objectList("files")).isEmpty();
        big.delete("/api/v1/sessions/" + s.id(), s.token());
    }

    /** Sends only the head of a PUT, as a client waiting for "100 Continue" would, and reads the verdict. */
    private static String putHeadOnly(TestApp app, TestApp.SessionRef s, String name, long length) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", app.main.port())) {
            socket.setSoTimeout(10_000);
            String head = "PUT /api/v1/sessions/" + s.id() + "/files/" + name + " HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer " + s.token() + "\r\nContent-Length: " + length + "\r\n"
                    + "Expect: 100-continue\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readNBytes(4096), StandardCharsets.UTF_8);
        }
    }

    private static long retainedHeap() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** {@code size} zero bytes, generated as read: the test itself holds no big buffer. */
    static final class Zeros extends InputStream {
        private long left;

        Zeros(long size) {
            this.left = size;
        }

        @Override
        public int read() {
            if (left <= 0) {
                return -1;
            }
            left--;
            return 0;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (left <= 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            java.util.Arrays.fill(b, off, off + n, (byte) 0);
            left -= n;
            return n;
        }
    }

}
