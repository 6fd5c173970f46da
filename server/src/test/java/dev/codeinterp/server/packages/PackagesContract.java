package dev.codeinterp.server.packages;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.Status;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code packages} end to end against the real engine, once per runtime: Python wheels from a real
 * simple index this test serves on the host, npm packages from npm's public registry; the sandbox
 * stays offline throughout. The app gets its own allowlist file, as an operator would give it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class PackagesContract {
    PackageIndexApp packages;
    TestApp app;
    LocalPackageIndex index;

    abstract String runtime();

    @BeforeAll
    void start() {
        packages = PackageIndexApp.start(runtime(), index -> {
            index.publish("codeinterp-demo", "1.0", "codeinterp_demo",
                    "from codeinterp_dep import VALUE\ndef hello():\n    return 'hello from the local index'\n", List.of("codeinterp-dep"));
            index.publish("codeinterp-dep", "2.0", "codeinterp_dep", "VALUE = 42\n", List.of());
        }, "python codeinterp-demo", "python codeinterp-unpublished", "python numpy preinstalled", "javascript is-odd");
        app = packages.app;
        index = packages.index;
    }

    @AfterAll
    void stop() throws IOException {
        packages.close();
    }

    private TestApp.Response post(String path, String token, String code, String language, List<String> packages, Double timeout) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", code);
        body.put("language", language);
        body.put("packages", new ArrayList<Object>(packages));
        if (timeout != null) {
            body.put("timeout", timeout);
        }
        return app.post(path, Json.write(body), token);
    }

    private JsonObject run(TestApp.SessionRef s, String language, List<String> packages, String code) {
        TestApp.Response r = post("/api/v1/sessions/" + s.id() + "/execute", s.token(), code, language, packages, 3.0);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    @Test
    void a_python_package_from_the_local_index_installs_through_packages_while_the_sandbox_stays_offline() {
        TestApp.SessionRef first = app.createSession();
        // a timeout of 2 s: the cold fetch (pip on the host) may take longer, and must not count
        JsonObject r = run(first, "python", List.of("CodeInterp_Demo", "numpy"),
                "import codeinterp_demo, codeinterp_dep\nprint(codeinterp_demo.hello(), codeinterp_dep.VALUE)\n"
                        + packages.networkProbe("('registry.npmjs.org', 443)"));
        assertThat(r.string("status")).as(r.asMap().toString()).isEqualTo("ok");
        assertThat(r.string("stdout")).startsWith("hello from the local index 42\n");
        assertThat(r.string("stdout")).doesNotContain("CONNECTED").contains("offline");
        JsonObject install = packages.installEvents(first).get(0);
        assertThat(install.stringList("packages")).as("numpy is in the image: nothing to install").containsExactly("codeinterp-demo");
        assertThat(install.optBoolean("cached", true)).isFalse();

        int indexRequests = index.requests();
        TestApp.SessionRef second = app.createSession();
        JsonObject again = run(second, "python", List.of("codeinterp-demo"), "import codeinterp_demo\nprint(codeinterp_demo.hello())");
        assertThat(again.string("stdout")).isEqualTo("hello from the local index\n");
        JsonObject cached = packages.installEvents(second).get(0);
        assertThat(cached.optBoolean("cached", false)).isTrue();
        assertThat(cached.integer("duration_ms")).as("a cached install").isLessThan(1000);
        assertThat(index.requests()).as("the second session fetched nothing").isEqualTo(indexRequests);

        TestApp.SessionRef third = app.createSession();
        JsonObject elsewhere = run(third, "python", List.of(), "import importlib.util\nprint(importlib.util.find_spec('codeinterp_demo'))");
        assertThat(elsewhere.string("stdout")).as("each session's installs are its own").isEqualTo("None\n");
        app.post("/api/v1/sessions/" + first.id() + "/restart", "", first.token());
        JsonObject afterRestart = run(first, "python", List.of(), "import codeinterp_demo\nprint(codeinterp_demo.VALUE)");
        assertThat(afterRestart.string("stdout")).as("installs live in the session's storage").isEqualTo("42\n");
    }

    @Test
    void an_npm_package_installs_over_the_websocket_and_its_install_is_an_event_of_its_own() throws Exception {
        TestApp.SessionRef s = app.createSession();
        try (WsClient ws = WsClient.connect(app.wsUri(s.id()), null)) {
            ws.send(new ClientMessage.Hello(s.token(), 0));
            assertThat(ws.next(5000)).isInstanceOf(ServerMessage.Welcome.class);
            ws.send(new ClientMessage.Execute("const isOdd = require('is-odd'); console.log(isOdd(3), isOdd(4))", 4.0, "javascript",
                    List.of("is-odd@3.0.1")));
            List<Event> events = new ArrayList<>();
            while (events.isEmpty() || !(events.get(events.size() - 1) instanceof Event.Finished)) {
                if (ws.next(120_000) instanceof ServerMessage.EventFrame f) {
                    events.add(f.event().event());
                }
            }
            assertThat(events).as(events.toString()).extracting(Event::type).map(Enum::name)
                    .containsSubsequence("QUEUED", "INSTALL", "STARTED", "STREAM", "FINISHED");
            Event.Install install = (Event.Install) events.stream().filter(Event.Install.class::isInstance).findFirst().orElseThrow();
            assertThat(install.packages()).containsExactly("is-odd@3.0.1");
            assertThat(events).contains(new Event.Stream(dev.codeinterp.model.StreamName.STDOUT, "true false\n"));
            assertThat(((Event.Finished) events.get(events.size() - 1)).status()).as("a 4 s timeout, the fetch (longer) not counted")
                    .isEqualTo(Status.OK);

            ws.send(new ClientMessage.Execute("1", null, "javascript", List.of("left-pad")));
            ServerMessage refused = ws.next(5000);
            assertThat(refused).isInstanceOf(ServerMessage.ProtocolError.class);
            assertThat(((ServerMessage.ProtocolError) refused).message()).contains("'left-pad' is not on this server's package allowlist");
        }
    }

    @Test
    void a_package_off_the_allowlist_is_refused_by_name_and_the_cell_does_not_run() {
        TestApp.SessionRef s = app.createSession();
        TestApp.Response refused = post("/api/v1/sessions/" + s.id() + "/execute", s.token(), "open('ran.txt', 'w')", "python",
                List.of("codeinterp-demo", "requests"), null);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().string("error"))
                .isEqualTo("python package 'requests' is not on this server's package allowlist, so the cell did not run (ask the operator to add it)");
        TestApp.Response once = post("/api/v1/execute", null, "1", "javascript", List.of("lodash"), null);
        assertThat(once.status()).isEqualTo(400);
        assertThat(once.json().string("error")).contains("'lodash' is not on this server's package allowlist");
        assertThat(app.get("/api/v1/sessions/" + s.id() + "/events", s.token()).json().objectList("events")).as("nothing queued").isEmpty();
        TestApp.Response bash = post("/api/v1/execute", null, "echo", "bash", List.of("jq"), null);
        assertThat(bash.json().string("error")).contains("python and javascript");
    }

    @Test
    void a_fetch_that_fails_ends_the_cell_with_pips_words_and_the_code_does_not_run() {
        TestApp.SessionRef s = app.createSession();
        JsonObject r = run(s, "python", List.of("codeinterp-unpublished"), "print('ran')");
        assertThat(r.string("status")).isEqualTo("error");
        assertThat(r.string("stdout")).isEmpty();
        assertThat(r.object("error").string("name")).isEqualTo("PackageFetchError");
        assertThat(r.object("error").string("value")).contains("pip download failed").contains("codeinterp-unpublished");
        assertThat(run(s, "python", List.of(), "print('next')").string("stdout")).as("the session goes on").isEqualTo("next\n");
    }

    @Test
    void hostile_package_names_are_refused_before_any_fetch() {
        int before = index.requests();
        for (String hostile : List.of("../x", "--index-url=http://evil.example/simple", "git+https://github.com/x/y", "a b",
                "-r/etc/passwd", "codeinterp-demo --pre", "file:///etc/passwd", "codeinterp-demo\n--extra-index-url=http://evil")) {
            TestApp.Response r = post("/api/v1/execute", null, "1", "python", List.of(hostile), null);
            assertThat(r.status()).as(hostile).isEqualTo(400);
            assertThat(r.json().string("error")).as(hostile).startsWith("python package '").contains("is not a package name");
        }
        for (String hostile : List.of("../x", "--registry=http://evil", "github:x/y", "is-odd@file:../x", "IS-ODD")) {
            TestApp.Response r = post("/api/v1/execute", null, "1", "javascript", List.of(hostile), null);
            assertThat(r.status()).as(hostile).isEqualTo(400);
        }
        assertThat(index.requests()).isEqualTo(before);
    }
}
