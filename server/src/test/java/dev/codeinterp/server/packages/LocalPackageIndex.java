package dev.codeinterp.server.packages;

import com.sun.net.httpserver.HttpServer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A real PEP 503 simple index on 127.0.0.1 serving wheels built here (pure Python, {@code py3-none-any}):
 * what pip reads from PyPI, without PyPI. Counts requests, so a test can show nothing was fetched.
 */
public final class LocalPackageIndex implements AutoCloseable {
    private final HttpServer server;
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final Map<String, String> projectPages = new ConcurrentHashMap<>();
    private final AtomicInteger requests = new AtomicInteger();
    /** How long a file (a wheel) takes to start coming: a real index is far away. */
    private volatile long fileDelayMs;

    public LocalPackageIndex() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            String path = exchange.getRequestURI().getPath();
            byte[] body = null;
            String type = "text/html";
            if (path.startsWith("/simple/")) {
                String page = projectPages.get(path.substring("/simple/".length()).replaceAll("/$", ""));
                body = page == null ? null : page.getBytes(StandardCharsets.UTF_8);
            } else if (path.startsWith("/files/")) {
                body = files.get(path.substring("/files/".length()));
                type = "application/octet-stream";
                pause(fileDelayMs);
            }
            if (body == null) {
                exchange.sendResponseHeaders(404, -1);
            } else {
                exchange.getResponseHeaders().set("Content-Type", type);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        server.start();
    }

    /** The index URL to give pip. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/simple/";
    }

    public int requests() {
        return requests.get();
    }

    /** Files answer {@code ms} late from now on, as from an index across the internet (0: at once). */
    public void delayFiles(long ms) {
        fileDelayMs = ms;
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Builds and publishes a wheel of {@code project} {@code version} whose module {@code module}
     * holds {@code source}; {@code requires} are its dependencies (Requires-Dist).
     */
    public void publish(String project, String version, String module, String source, List<String> requires) {
        String dist = project.replace('-', '_');
        String filename = dist + "-" + version + "-py3-none-any.whl";
        String info = dist + "-" + version + ".dist-info/";
        StringBuilder metadata = new StringBuilder("Metadata-Version: 2.1\nName: " + project + "\nVersion: " + version + "\n");
        requires.forEach(r -> metadata.append("Requires-Dist: ").append(r).append('\n'));
        byte[] wheel = zip(Map.of(
                module + "/__init__.py", source,
                info + "METADATA", metadata.toString(),
                info + "WHEEL", "Wheel-Version: 1.0\nGenerator: codeinterp-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
                info + "RECORD", ""));
        files.put(filename, wheel);
        projectPages.put(project, "<!DOCTYPE html><html><body><a href=\"../../files/" + filename + "#sha256=" + sha256(wheel)
                + "\">" + filename + "</a></body></html>");
    }

    private static byte[] zip(Map<String, String> entries) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (var e : new java.util.TreeMap<>(entries).entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey()));
                zip.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
