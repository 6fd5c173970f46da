package dev.codeinterp.server.files;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The session workspace: uploads in, generated files out, limits and hostile names; once per runtime. */
abstract class FilesContract {
    TestApp app;
    TestApp.SessionRef session;

    abstract String runtime();

    @BeforeEach
    void start() {
        app = TestApp.shared(runtime());
        session = app.createSession();
    }

    @AfterEach
    void close() {
        app.delete("/api/v1/sessions/" + session.id(), session.token());
    }

    @Test
    void an_uploaded_csv_is_read_by_pandas_by_its_plain_name() {
        StringBuilder csv = new StringBuilder("region,revenue\n");
        Random random = new Random(7);
        long north = 0;
        for (int i = 0; i < 5000; i++) {
            String region = i % 3 == 0 ? "north" : i % 3 == 1 ? "south" : "west";
            int revenue = random.nextInt(10_000);
            if (region.equals("north")) {
                north += revenue;
            }
            csv.append(region).append(',').append(revenue).append('\n');
        }
        TestApp.Response put = app.putFile(session, "sales.csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(put.status()).as(put.body()).isEqualTo(201);
        assertThat(put.json().string("mime")).isEqualTo("text/csv");

        JsonObject r = app.execute(session, "import pandas as pd\ndf = pd.read_csv('sales.csv')\n"
                + "print(int(df[df.region == 'north'].revenue.sum()))", 60.0);
        assertThat(r.string("stdout").trim()).as(r.asMap().toString()).isEqualTo(String.valueOf(north));
    }

    @Test
    void a_multipart_upload_lands_under_its_own_name() {
        String boundary = "----codeinterp" + System.nanoTime();
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"notes.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\nfirst line\nsecond line\n\r\n--" + boundary + "--\r\n";
        HttpResponse<byte[]> r = app.exchange(app.request("/api/v1/sessions/" + session.id() + "/files", session.token())
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        assertThat(r.statusCode()).as(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(201);
        JsonObject out = app.execute(session, "print(open('notes.txt').read().splitlines()[1])", null);
        assertThat(out.string("stdout")).isEqualTo("second line\n");
    }

    @Test
    void a_cell_writing_xlsx_and_png_lists_them_as_artifacts_and_downloads_them_safely() throws Exception {
        JsonObject r = app.execute(session, String.join("\n",
                "import pandas as pd, matplotlib.pyplot as plt",
                "df = pd.DataFrame({'city': ['Oslo', 'Lima', 'Pune'], 'rain_mm': [763, 16, 722]})",
                "df.to_excel('out.xlsx', index=False)",
                "df.plot.bar(x='city', y='rain_mm').figure.savefig('rain.png')",
                "plt.close('all')"), 90.0);
        assertThat(r.string("status")).as(r.asMap().toString()).isEqualTo("ok");

        List<JsonObject> artifacts = new ArrayList<>();
        for (JsonObject e : app.get("/api/v1/sessions/" + session.id() + "/events", session.token()).json().objectList("events")) {
            if (e.string("type").equals("artifact")) {
                artifacts.add(e);
            }
        }
        assertThat(artifacts).extracting(a -> a.string("name")).containsExactly("out.xlsx", "rain.png");
        assertThat(artifacts.get(1).string("mime")).isEqualTo("image/png");
        assertThat(artifacts.get(1).string("url")).isEqualTo("/api/v1/sessions/" + session.id() + "/files/rain.png");

        JsonObject listing = app.get("/api/v1/sessions/" + session.id() + "/files", session.token()).json();
        assertThat(listing.objectList("files")).extracting(f -> f.string("name")).containsExactly("out.xlsx", "rain.png");

        HttpResponse<byte[]> png = download("rain.png", session.token());
        assertThat(png.statusCode()).isEqualTo(200);
        assertThat(png.body()).startsWith(0x89, 'P', 'N', 'G');
        assertThat(png.headers().firstValue("Content-Type")).hasValue("image/png");
        assertThat(png.headers().firstValue("Content-Disposition").orElse("")).startsWith("attachment;").contains("rain.png");
        assertThat(png.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(png.headers().firstValue("Content-Security-Policy").orElse("")).startsWith("sandbox");
        assertThat(download("rain.png", "not-the-token").statusCode()).isEqualTo(404);

        // as a browser asks for it (gzip accepted): the bytes arrive whole and as stored, length declared
        HttpResponse<byte[]> xlsx = app.exchange(app.request("/api/v1/sessions/" + session.id() + "/files/out.xlsx", session.token())
                .header("Accept-Encoding", "gzip, deflate, br").GET().build());
        assertThat(xlsx.statusCode()).isEqualTo(200);
        assertThat(xlsx.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(xlsx.headers().firstValue("Content-Length")).hasValue(String.valueOf(xlsx.body().length));
        assertThat(xlsx.body()).startsWith('P', 'K');

        // the downloaded workbook, taken somewhere else, opens with openpyxl to the same values
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("code", "import openpyxl\nws = openpyxl.load_workbook('copy.xlsx').active\n"
                + "print([[c.value for c in row] for row in ws.iter_rows()])");
        request.put("files", List.of(Map.of("name", "copy.xlsx", "content_base64", Base64.getEncoder().encodeToString(xlsx.body()))));
        JsonObject once = app.post("/api/v1/execute", Json.write(request), null).json();
        assertThat(once.string("stdout").trim())
                .isEqualTo("[['city', 'rain_mm'], ['Oslo', 763], ['Lima', 16], ['Pune', 722]]");
    }

    @Test
    void the_one_shot_execute_returns_the_files_the_code_wrote() {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("code", "data = open('in.txt').read()\nopen('upper.txt', 'w').write(data.upper())");
        request.put("files", List.of(Map.of("name", "in.txt", "content_base64",
                Base64.getEncoder().encodeToString("shout".getBytes(StandardCharsets.UTF_8)))));
        JsonObject r = app.post("/api/v1/execute", Json.write(request), null).json();
        assertThat(r.objectList("files")).hasSize(1);
        JsonObject file = r.objectList("files").get(0);
        assertThat(file.string("name")).isEqualTo("upper.txt");
        assertThat(file.number("size")).isEqualTo(5);
        assertThat(new String(Base64.getDecoder().decode(file.string("content_base64")), StandardCharsets.UTF_8)).isEqualTo("SHOUT");
    }

    @Test
    void files_survive_a_restart_of_the_interpreter_and_a_timeout() throws Exception {
        app.execute(session, "open('kept.txt', 'w').write('still here')", null);
        assertThat(app.post("/api/v1/sessions/" + session.id() + "/restart", "", session.token()).status()).isEqualTo(202);
        JsonObject afterRestart = app.execute(session, "print(open('kept.txt').read(), 'x' in dir())", null);
        assertThat(afterRestart.string("stdout")).isEqualTo("still here False\n");

        // a cell that ignores the interrupt forces the hard restart: a new container, the same files
        JsonObject stuck = app.execute(session, "import signal, time\nopen('late.txt', 'w').write('written before the hang')\n"
                + "signal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True: time.sleep(0.05)", 1.0);
        assertThat(stuck.string("status")).isEqualTo("timeout");
        JsonObject afterTimeout = app.execute(session, "print(open('kept.txt').read(), open('late.txt').read())", null);
        assertThat(afterTimeout.string("stdout")).isEqualTo("still here written before the hang\n");
    }

    @Test
    void deleting_a_file_removes_it_for_the_code_too() {
        app.putFile(session, "gone.txt", "x".getBytes(StandardCharsets.UTF_8));
        HttpResponse<byte[]> del = app.exchange(app.request(filePath("gone.txt"), session.token()).DELETE().build());
        assertThat(del.statusCode()).isEqualTo(204);
        assertThat(app.execute(session, "import os\nprint(os.path.exists('gone.txt'))", null).string("stdout")).isEqualTo("False\n");
        assertThat(app.exchange(app.request(filePath("gone.txt"), session.token()).DELETE().build()).statusCode()).isEqualTo(404);
    }

    @Test
    void hostile_file_names_are_refused_and_nothing_lands_outside_the_workspace() throws Exception {
        List<String> hostile = List.of(
                "..", "..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "a%5Cb", "..%5C..%5Cwin.ini", "a%00b", "line%0Abreak",
                "tab%09name", "bell%07", "x".repeat(256), "%EF%BC%8E%EF%BC%8E",            // fullwidth ".."
                "a%E2%88%95b", "a%E2%81%84b", "a%EF%BC%8Fb",                                // division, fraction, fullwidth slash
                "%E2%80%AEgnp.exe", "zero%E2%80%8Bwidth", "%20leading-space", "trailing-space%20",
                ".codeinterp-upload-x");
        String before = Files.readString(Path.of("/etc/passwd"));
        for (String name : hostile) {
            TestApp.Response r = app.putFile(session, name, "pwned".getBytes(StandardCharsets.UTF_8));
            assertThat(r.status()).as("upload as '%s' answered %s", name, r.body()).isBetween(400, 499);
        }
        JsonObject listing = app.get("/api/v1/sessions/" + session.id() + "/files", session.token()).json();
        assertThat(listing.objectList("files")).isEmpty();
        assertThat(Files.readString(Path.of("/etc/passwd"))).isEqualTo(before);
        assertThat(Files.exists(app.dataDir.resolve("pwned"))).isFalse();

        String unicode = "données €—報告.csv";
        String encoded = URLEncoder.encode(unicode, StandardCharsets.UTF_8).replace("+", "%20");
        assertThat(app.putFile(session, encoded, "a,b\n1,2\n".getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(201);
        assertThat(app.execute(session, "print(open('" + unicode + "').read().split()[1])", null).string("stdout")).isEqualTo("1,2\n");
        HttpResponse<byte[]> d = download(encoded, session.token());
        assertThat(d.headers().firstValue("Content-Disposition").orElse(""))
                .contains("filename*=UTF-8''" + encoded.replace("%E2%80%94", "%E2%80%94"));
    }

    @Test
    void a_symlink_planted_by_code_is_never_followed_by_the_server() throws Exception {
        String passwd = sha256(Files.readAllBytes(Path.of("/etc/passwd")));
        JsonObject r = app.execute(session, String.join("\n",
                "import os",
                "os.symlink('/etc/passwd', 'passwd.txt')",
                "os.symlink('/proc/self/environ', 'environ.txt')",
                "os.symlink('..', 'up')",
                "os.mkfifo('pipe.txt')",
                "print(sorted(os.listdir('.')))"), null);
        assertThat(r.string("stdout")).contains("passwd.txt");
        assertThat(download("passwd.txt", session.token()).statusCode()).isEqualTo(404);
        assertThat(download("environ.txt", session.token()).statusCode()).isEqualTo(404);
        assertThat(download("pipe.txt", session.token()).statusCode()).isEqualTo(404);
        JsonObject listing = app.get("/api/v1/sessions/" + session.id() + "/files", session.token()).json();
        assertThat(listing.objectList("files")).isEmpty();

        // uploading onto the link's name replaces the link; the host file it pointed at is untouched
        assertThat(app.putFile(session, "passwd.txt", "mine".getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(201);
        assertThat(sha256(Files.readAllBytes(Path.of("/etc/passwd")))).isEqualTo(passwd);
        assertThat(new String(download("passwd.txt", session.token()).body(), StandardCharsets.UTF_8)).isEqualTo("mine");
        // deleting a link removes the link only
        assertThat(app.exchange(app.request(filePath("up"), session.token()).DELETE().build()).statusCode()).isEqualTo(204);
        assertThat(Files.exists(app.dataDir)).isTrue();
    }

    private String filePath(String encodedName) {
        return "/api/v1/sessions/" + session.id() + "/files/" + encodedName;
    }

    private HttpResponse<byte[]> download(String encodedName, String token) {
        return app.exchange(app.request(filePath(encodedName), token).GET().build());
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
