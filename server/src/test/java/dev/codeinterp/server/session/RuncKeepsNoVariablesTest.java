package dev.codeinterp.server.session;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Where interpreters cannot be checkpointed (runc here: Debian's CRIU fails on this kernel), the server says so and changes nothing. */
class RuncKeepsNoVariablesTest {

    @Test
    void on_runc_suspend_and_fork_answer_409_with_the_reason_and_the_session_goes_on() {
        TestApp app = TestApp.shared("runc");
        JsonObject idle = app.get("/healthz", null).json().object("idle");
        assertThat(idle.optBoolean("keeps_variables", true)).isFalse();
        assertThat(idle.string("why")).contains("runc");

        TestApp.SessionRef s = app.createSession();
        app.execute(s, "x = 41", null);
        for (String route : new String[] {"suspend", "fork"}) {
            TestApp.Response refused = app.post("/api/v1/sessions/" + s.id() + "/" + route, "", s.token());
            assertThat(refused.status()).as(route + ": " + refused.body()).isEqualTo(409);
            assertThat(refused.json().string("error")).as(route).contains("cannot " + route + " sessions").contains("runc");
        }
        assertThat(app.execute(s, "x + 1", null).objectList("results").get(0).string("text/plain")).isEqualTo("42");
        app.delete("/api/v1/sessions/" + s.id(), s.token());
    }
}
