package dev.codeinterp.server.api;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server started without CODEINTERP_RUNTIME runs sessions behind gVisor where the engine has it
 * (this machine's does: scripts/setup-host.sh registers it), and /healthz says how it chose.
 */
class DefaultRuntimeTest {
    @Test
    void unset_the_runtime_is_gvisor_because_the_engine_has_it() {
        try (TestApp app = TestApp.start(null, Map.of("POOL_SIZE", "0"))) {
            JsonObject health = app.get("/healthz", null).json();
            assertThat(health.string("status")).isEqualTo("ok");
            assertThat(health.string("runtime")).isEqualTo("runsc");
            JsonObject choice = health.object("runtime_choice");
            assertThat(choice.string("runtime")).isEqualTo("runsc");
            assertThat(choice.string("chosen_by")).isEqualTo("default");
            assertThat(choice.string("why")).contains("gVisor (runsc) is registered");
            assertThat(health.object("idle").optBoolean("keeps_variables", false)).as("suspend keeps variables, unasked").isTrue();
            TestApp.Response created = app.post("/api/v1/sessions", "", null);
            assertThat(created.json().string("runtime")).isEqualTo("runsc");
            TestApp.SessionRef s = new TestApp.SessionRef(created.json().string("id"), created.json().string("token"));
            assertThat(app.execute(s, "import os; print(os.uname().release)", null).string("stdout"))
                    .as("the cell meets gVisor's kernel (it says 4.4.0), not the host's").isEqualTo("4.4.0\n");
        }
    }

    @Test
    void runc_set_is_runc_and_healthz_says_the_setting_chose_it() {
        try (TestApp app = TestApp.start("runc", Map.of("POOL_SIZE", "0"))) {
            JsonObject health = app.get("/healthz", null).json();
            assertThat(health.string("runtime")).isEqualTo("runc");
            JsonObject choice = health.object("runtime_choice");
            assertThat(choice.string("chosen_by")).isEqualTo("setting");
            assertThat(choice.string("why")).isEqualTo("CODEINTERP_RUNTIME=runc");
            assertThat(app.createSession()).isNotNull();
        }
    }

    @Test
    void unset_without_an_engine_falls_back_to_runc_and_says_why() {
        try (TestApp app = TestApp.start(null, Map.of("POOL_SIZE", "0", "DOCKER_HOST", "unix:///nonexistent/docker.sock"))) {
            JsonObject health = app.get("/healthz", null).json();
            assertThat(health.string("status")).isEqualTo("degraded");
            assertThat(health.string("runtime")).isEqualTo("runc");
            JsonObject choice = health.object("runtime_choice");
            assertThat(choice.string("chosen_by")).isEqualTo("fallback");
            assertThat(choice.string("why")).contains("no Docker engine answered", "without gVisor's boundary",
                    "variables are not kept past idle");
        }
    }
}
