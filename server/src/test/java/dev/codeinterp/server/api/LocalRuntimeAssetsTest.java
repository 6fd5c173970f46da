// Over 300 lines: one table-like test per served local-runtime asset (types, caching, CSP, integrity), all against one started server.
package dev.codeinterp.server.api;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Local mode's static side over real HTTP: the runtime page and its CSP, the Pyodide core and
 * runtime files (MIME types, gzip, immutable caching, CORS for the opaque-origin frame), the
 * wheelhouse, and that nothing outside the manifest or the wheelhouse can be reached. No sandbox
 * is started (pool size 0): no Docker needed.
 */
class LocalRuntimeAssetsTest {
    static final Path RUNNER_PACKAGE = Path.of("..", "sandbox-images", "runner", "codeinterp_runner");
    static TestApp app;
    static Path wheelhouse;
    static String runtimePath; // /local/<hash>/
    static String pyodidePath; // /pyodide/<version>/

    @BeforeAll
    static void start() throws IOException {
        Path data = Files.createTempDirectory("codeinterp-local-assets");
        wheelhouse = Files.createDirectories(data.resolve("wheelhouse"));
        app = TestApp.start("runc", Map.of("POOL_SIZE", "0"), data);
        String page = app.get("/local/runtime.html", null).body();
        runtimePath = find(page, "\"runtimeURL\":\"(/local/[0-9a-f]{16}/)\"");
        pyodidePath = find(page, "\"indexURL\":\"(/pyodide/[0-9][0-9.]*/)\"");
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void the_runtime_page_may_load_our_assets_and_connect_nowhere_else() {
        TestApp.Response r = app.get("/local/runtime.html", null);
        String origin = "http://127.0.0.1:" + app.main.port();
        assertThat(r.status()).isEqualTo(200);
        assertThat(header(r, "Content-Type")).startsWith("text/html");
        assertThat(header(r, "Cache-Control")).isEqualTo("no-cache");
        assertThat(header(r, "Cross-Origin-Embedder-Policy")).isEqualTo("require-corp");
        Map<String, String> csp = directives(header(r, "Content-Security-Policy"));
        assertThat(csp.get("default-src")).isEqualTo("'none'");
        assertThat(csp.get("script-src").split(" ")).containsExactlyInAnyOrder(
                origin + runtimePath, origin + pyodidePath, "blob:", "'wasm-unsafe-eval'");
        assertThat(csp.get("worker-src")).isEqualTo("blob:");
        assertThat(csp.get("connect-src").split(" ")).containsExactlyInAnyOrder(
                origin + runtimePath, origin + pyodidePath, origin + "/local/wheels/");
        // the app, and the pages that may frame the embed widget (which nests this frame)
        assertThat(csp.get("frame-ancestors")).isEqualTo(origin + " " + app.settings.embedOrigins().csp());
        assertThat(csp.get("form-action")).isEqualTo("'none'");
        assertThat(header(r, "Content-Security-Policy")).doesNotContain("unsafe-inline", "'unsafe-eval'");
        assertThat(csp.get("script-src") + csp.get("connect-src")).doesNotContain("*");
        assertThat(r.body()).contains("<link rel=\"modulepreload\" href=\"" + runtimePath + "cells.mjs\">\n")
                .contains("<script type=\"module\" src=\"" + runtimePath + "runtime.mjs\"></script>")
                .contains("type=\"application/json\" id=\"config\"").doesNotContain("{{");
    }

    @Test
    void a_host_header_that_could_bend_the_csp_is_refused() throws IOException {
        assertThat(rawStatus("/local/runtime.html", "evil.example; script-src *")).isEqualTo(400);
        assertThat(rawStatus("/local/runtime.html", "a\"b")).isEqualTo(400);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "pyodide.mjs=text/javascript", "pyodide.asm.mjs=text/javascript", "pyodide.asm.wasm=application/wasm",
        "python_stdlib.zip=application/zip", "pyodide-lock.json=application/json"})
    void the_pyodide_core_is_served_gzipped_immutable_and_to_any_origin(String fileAndType) throws IOException {
        String[] parts = fileAndType.split("=");
        HttpResponse<byte[]> gz = fetch(pyodidePath + parts[0], "gzip, deflate, br");
        assertThat(gz.statusCode()).isEqualTo(200);
        assertThat(gz.headers().firstValue("Content-Type").orElse("")).startsWith(parts[1]);
        assertThat(gz.headers().firstValue("Cache-Control")).hasValue("public, max-age=31536000, immutable");
        assertThat(gz.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
        assertThat(gz.headers().firstValue("Cross-Origin-Resource-Policy")).hasValue("cross-origin");
        assertThat(gz.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        HttpResponse<byte[]> plain = fetch(pyodidePath + parts[0], null);
        assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
        byte[] identity = plain.body();
        if (gz.headers().firstValue("Content-Encoding").isPresent()) {
            assertThat(gz.headers().firstValue("Content-Encoding")).hasValue("gzip");
            assertThat(gz.body().length).isLessThan(identity.length);
            assertThat(gunzip(gz.body())).isEqualTo(identity);
        } else {
            assertThat(gz.body()).isEqualTo(identity); // stored as is: gzip would not save a tenth
        }
        if (parts[0].endsWith(".wasm")) {
            assertThat(identity).startsWith(0, 'a', 's', 'm');
        }
    }

    @Test
    void gzip_refused_with_q0_gets_the_identity() throws IOException {
        HttpResponse<byte[]> r = fetch(pyodidePath + "pyodide.mjs", "gzip;q=0, identity");
        assertThat(r.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("loadPyodide");
    }

    @Test
    void the_served_lock_file_lists_only_packages_we_ship() {
        JsonObject lock = JsonObject.parse(app.get(pyodidePath + "pyodide-lock.json", null).body());
        assertThat(lock.object("packages").asMap()).isEmpty();
        assertThat(lock.object("info").string("python")).startsWith("3.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cells.mjs=text/javascript", "workspace.mjs=text/javascript", "runtime.mjs=text/javascript",
        "worker.mjs=text/javascript", "boot.mjs=text/javascript", "packages.mjs=text/javascript",
        "workspace-fs.mjs=text/javascript", "workspace-names.mjs=text/javascript", "errors.mjs=text/javascript",
        "pyodide_host.py=text/x-python", "python-sources.json=application/json",
        "codeinterp_runner/__init__.py=text/x-python", "codeinterp_runner/cells.py=text/x-python"})
    void the_runtime_files_live_under_their_content_hash(String fileAndType) throws IOException {
        String[] parts = fileAndType.split("=");
        HttpResponse<byte[]> r = fetch(runtimePath + parts[0], null);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith(parts[1]);
        assertThat(r.headers().firstValue("Cache-Control")).hasValue("public, max-age=31536000, immutable");
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
    }

    @Test
    void the_runner_in_the_browser_is_the_sandbox_runner_byte_for_byte() throws IOException {
        List<String> modules;
        try (Stream<Path> files = Files.walk(RUNNER_PACKAGE)) { // with its folders: the IPython shim
            modules = files.filter(f -> f.getFileName().toString().endsWith(".py") && !f.toString().contains("__pycache__"))
                    .map(f -> RUNNER_PACKAGE.relativize(f).toString().replace('\\', '/')).sorted().toList();
        }
        assertThat(modules).contains("__init__.py", "__main__.py", "cells.py", "protocol.py", "shims/IPython/display.py");
        for (String module : modules) {
            HttpResponse<byte[]> served = fetch(runtimePath + "codeinterp_runner/" + module, "gzip");
            byte[] body = served.headers().firstValue("Content-Encoding").isPresent() ? gunzip(served.body()) : served.body();
            assertThat(body).as(module).isEqualTo(Files.readAllBytes(RUNNER_PACKAGE.resolve(module)));
        }
        // The worker installs exactly these, from one file: the host module and every module of the package, as they are.
        List<String> expected = new ArrayList<>(List.of("pyodide_host.py"));
        modules.forEach(m -> expected.add("codeinterp_runner/" + m));
        List<?> sources = (List<?>) Json.parse(app.get(runtimePath + "python-sources.json", null).body());
        assertThat(sources.stream().map(pair -> ((List<?>) pair).get(0)).toList()).isEqualTo(expected);
        for (Object pair : sources.subList(1, sources.size())) {
            String path = (String) ((List<?>) pair).get(0);
            assertThat(((String) ((List<?>) pair).get(1)).getBytes(StandardCharsets.UTF_8)).as(path)
                    .isEqualTo(Files.readAllBytes(RUNNER_PACKAGE.resolve(path.substring("codeinterp_runner/".length()))));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "/pyodide/0.0.1/pyodide.mjs", "/pyodide/latest/pyodide.mjs",
        "PYODIDE/package.json", "PYODIDE/pyodide.js", "PYODIDE/README.md", "PYODIDE/console.html",
        "PYODIDE/pyodide.mjs.gz", "PYODIDE/numpy-2.0.0-cp313-cp313-pyodide_2025_0_wasm32.whl",
        "RUNTIME/runtime.html", "RUNTIME/runtime.mjs.gz", "RUNTIME/nothing.js", "RUNTIME/runner.py",
        "RUNTIME/codeinterp_runner/nothing.py", "RUNTIME/codeinterp_runner/cells.py.gz", "RUNTIME/codeinterp_runner",
        "RUNTIME/codeinterp_runner/__pycache__/cells.cpython-311.pyc", "RUNTIME/runtime/pyodide_host.py",
        "/local/0000000000000000/codeinterp_runner/cells.py", "/local/wheels/codeinterp_runner/cells.py",
        "/local/0000000000000000/runtime.mjs", "/local/runtime.mjs", "/pyodide-assets/manifest.json",
        "/pyodide-assets/runtime/runtime.mjs.gz", "/local/wheels/nothing-1.0-py3-none-any.whl"})
    void only_files_in_the_manifest_are_served(String path) {
        String resolved = path.replace("PYODIDE/", pyodidePath).replace("RUNTIME/", runtimePath);
        assertThat(app.get(resolved, null).status()).as(resolved).isEqualTo(404);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "/pyodide/../x", "/pyodide/../pyodide-assets/manifest.json", "PYODIDE../../pom.xml",
        "PYODIDE%2e%2e/%2e%2e/pyodide-assets/manifest.json", "PYODIDE..%2f..%2fpyodide-assets%2fmanifest.json",
        "PYODIDE%2e%2e%2f%2e%2e%2fapi%2fv1%2fsessions", "RUNTIME..%2fruntime.html", "RUNTIME%2e%2e/runtime.html",
        "RUNTIMEcodeinterp_runner/..%2fruntime.html", "RUNTIMEcodeinterp_runner/%2e%2e%2f%2e%2e%2fpyodide-assets%2fmanifest.json",
        "RUNTIMEcodeinterp_runner/shims/IPython/../../../runtime.html", "RUNTIMEcodeinterp_runner/shims/%2e%2e/%2e%2e/runtime.html",
        "RUNTIMEcodeinterp_runner/shims/IPython/..%2f..%2f..%2f..%2fpyodide-assets%2fmanifest.json",
        "RUNTIME%2e%2e/pyodide-assets/manifest.json",
        "/local/wheels/..%2f..%2fcodeinterp.db", "/local/wheels/%2e%2e/codeinterp.db", "/local/wheels/../codeinterp.db",
        "/local/wheels/%2e%2e%2fcodeinterp.db", "/local/wheels/..%5c..%5cx.whl", "/local/wheels/.%2e/x.whl"})
    void traversal_attempts_find_nothing(String path) throws IOException {
        String resolved = path.replace("PYODIDE", pyodidePath).replace("RUNTIME", runtimePath);
        RawResponse r = raw(resolved, "127.0.0.1:" + app.main.port());
        assertThat(r.status()).as(resolved).isIn(400, 404);
        assertThat(r.body()).as(resolved).doesNotContain("\"files\"", "codeinterp-pyodide", "SQLite");
    }

    @Test
    void a_wheel_in_the_wheelhouse_is_listed_with_its_modules_and_served() throws IOException {
        writeWheel(wheelhouse.resolve("probe_pkg-1.0-py3-none-any.whl"),
                Map.of("probe_pkg/__init__.py", "X = 1\n", "probe_helper.py", "", "probe_pkg-1.0.dist-info/METADATA", ""));
        writeWheel(wheelhouse.resolve("declared-2.0-py3-none-any.whl"),
                Map.of("declared/__init__.py", "", "declared-2.0.dist-info/top_level.txt", "declared\nalso_declared\n../bad\n"));
        List<JsonObject> wheels = wheelIndex();
        assertThat(wheels).extracting(w -> w.string("file"))
                .containsExactly("declared-2.0-py3-none-any.whl", "probe_pkg-1.0-py3-none-any.whl");
        assertThat(wheels.get(0).stringList("imports")).containsExactly("also_declared", "declared");
        assertThat(wheels.get(1).stringList("imports")).containsExactly("probe_helper", "probe_pkg");

        HttpResponse<byte[]> wheel = fetch("/local/wheels/probe_pkg-1.0-py3-none-any.whl", null);
        assertThat(wheel.statusCode()).isEqualTo(200);
        assertThat(wheel.headers().firstValue("Content-Type").orElse("")).startsWith("application/zip");
        assertThat(wheel.headers().firstValue("Cache-Control")).hasValue("no-cache");
        assertThat(wheel.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
        assertThat(wheel.body()).isEqualTo(Files.readAllBytes(wheelhouse.resolve("probe_pkg-1.0-py3-none-any.whl")));
        TestApp.Response index = app.get("/local/wheels/index.json", null);
        assertThat(header(index, "Cache-Control")).isEqualTo("no-cache");
        assertThat(header(index, "Content-Type")).startsWith("application/json");
    }

    @Test
    void hostile_entries_in_the_wheelhouse_are_neither_listed_nor_served() throws IOException {
        Path outside = Files.createTempFile("secret", ".txt");
        Files.writeString(outside, "top secret");
        Path sub = Files.createDirectories(wheelhouse.resolve("sub"));
        writeWheel(sub.resolve("nested-1.0-py3-none-any.whl"), Map.of("nested.py", ""));
        Files.createSymbolicLink(wheelhouse.resolve("link-1.0-py3-none-any.whl"), outside);
        Files.createDirectories(wheelhouse.resolve("dir-1.0-py3-none-any.whl"));
        Files.writeString(wheelhouse.resolve("notes.txt"), "not a wheel");
        Files.writeString(wheelhouse.resolve(".hidden-1.0-py3-none-any.whl"), "hidden");
        Files.writeString(wheelhouse.resolve("broken-1.0-py3-none-any.whl"), "not a zip");
        try {
            assertThat(wheelIndex()).extracting(w -> w.string("file"))
                    .doesNotContain("link-1.0-py3-none-any.whl", "dir-1.0-py3-none-any.whl", "notes.txt",
                            ".hidden-1.0-py3-none-any.whl", "nested-1.0-py3-none-any.whl");
            for (String name : List.of("link-1.0-py3-none-any.whl", "dir-1.0-py3-none-any.whl", "notes.txt",
                    ".hidden-1.0-py3-none-any.whl", "sub%2fnested-1.0-py3-none-any.whl", "sub", "..%2fsecret.whl",
                    "%2e%2e.whl", "a%00.whl", "a%0d%0aX-Injected:%201.whl", "%c3%a9-1.0-py3-none-any.whl")) {
                RawResponse r = raw("/local/wheels/" + name, "127.0.0.1:" + app.main.port());
                assertThat(r.status()).as(name).isIn(400, 404);
                assertThat(r.body()).as(name).doesNotContain("top secret", "hidden");
                assertThat(r.head()).as(name).doesNotContainIgnoringCase("X-Injected");
            }
            // a wheel that is not a zip is listed (the deployer put it there) but provides nothing
            JsonObject broken = wheelIndex().stream().filter(w -> w.string("file").startsWith("broken")).findFirst().orElseThrow();
            assertThat(broken.stringList("imports")).isEmpty();
        } finally {
            Files.delete(wheelhouse.resolve("link-1.0-py3-none-any.whl"));
            Files.delete(wheelhouse.resolve("broken-1.0-py3-none-any.whl"));
            Files.deleteIfExists(outside);
        }
    }

    @Test
    void a_configured_package_source_elsewhere_is_allowed_by_the_csp_and_handed_to_the_runtime() throws IOException {
        String cdn = "https://pyodide.example.org/v314/full/";
        try (TestApp other = TestApp.start("runc", Map.of("POOL_SIZE", "0", "PYODIDE_PACKAGES_URL", cdn),
                Files.createTempDirectory("codeinterp-local-cdn"))) {
            TestApp.Response r = other.get("/local/runtime.html", null);
            assertThat(directives(header(r, "Content-Security-Policy")).get("connect-src").split(" ")).contains(cdn);
            assertThat(r.body()).contains("\"packagesURL\":\"" + cdn + "\"");
        }
    }

    @Test
    void local_cells_get_the_servers_limits_with_the_page() throws IOException {
        try (TestApp other = TestApp.start("runc", Map.of("POOL_SIZE", "0", "TIMEOUT", "45s", "MAX_TIMEOUT", "20m",
                        "OUTPUT_CAP", "2m",
                        "INPUT_TIMEOUT", "90s", "INTERRUPT_GRACE", "1500ms"),
                Files.createTempDirectory("codeinterp-local-limits"))) {
            String page = other.get("/local/runtime.html", null).body();
            assertThat(page).contains("\"timeoutMs\":45000", "\"maxTimeoutMs\":1200000", "\"maxOutputBytes\":2097152",
                    "\"inputTimeoutMs\":90000",
                    "\"interruptGraceMs\":1500");
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static List<JsonObject> wheelIndex() {
        return JsonObject.parse(app.get("/local/wheels/index.json", null).body()).objectList("wheels");
    }

    private static void writeWheel(Path path, Map<String, String> entries) throws IOException {
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(path))) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey()));
                zip.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
    }

    private static HttpResponse<byte[]> fetch(String path, String acceptEncoding) {
        HttpRequest.Builder b = app.request(path, null).GET();
        if (acceptEncoding != null) {
            b.header("Accept-Encoding", acceptEncoding);
        }
        return app.exchange(b.build());
    }

    private static byte[] gunzip(byte[] gz) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            return in.readAllBytes();
        }
    }

    private static String header(TestApp.Response r, String name) {
        return r.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(e -> e.getValue().get(0)).findFirst().orElse("");
    }

    private static Map<String, String> directives(String csp) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (String part : csp.split(";")) {
            String[] words = part.strip().split(" ", 2);
            out.put(words[0], words.length > 1 ? words[1] : "");
        }
        return out;
    }

    private static String find(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as("%s in %s", regex, text).isTrue();
        return m.group(1);
    }

    private record RawResponse(int status, String head, String body) {
    }

    private static int rawStatus(String path, String host) throws IOException {
        return raw(path, host).status();
    }

    /** One request exactly as written: no client normalises its path or checks its Host. */
    private static RawResponse raw(String path, String host) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", app.main.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            socket.getInputStream().transferTo(all);
            String text = all.toString(StandardCharsets.ISO_8859_1);
            int split = text.indexOf("\r\n\r\n");
            String head = split < 0 ? text : text.substring(0, split);
            String[] statusLine = head.split(" ", 3);
            return new RawResponse(Integer.parseInt(statusLine[1]), head, split < 0 ? "" : text.substring(split + 4));
        }
    }
}
