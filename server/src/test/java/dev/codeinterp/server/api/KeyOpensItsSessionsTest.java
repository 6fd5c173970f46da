package dev.codeinterp.server.api;

import dev.codeinterp.model.rest.SessionList;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.testing.TestApp;
import dev.codeinterp.server.testing.WsClient;
import org.junit.jupiter.api.Test;


import static dev.codeinterp.server.api.ThreeKeys.ANN;
import static dev.codeinterp.server.api.ThreeKeys.BOB;
import static dev.codeinterp.server.api.ThreeKeys.EMBED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A browser on another device holds the API key and no token: it lists the key's sessions and
 * opens any of them with the key alone (REST, files, history, notebook, WebSocket), and nothing of
 * another key's; a publishable embed key opens nothing this way (real server, runc).
 */
class KeyOpensItsSessionsTest extends ThreeKeys {
    @Test
    void the_owning_key_alone_lists_and_opens_a_session_made_on_another_device() throws Exception {
        TestApp.Response created = app.post("/api/v1/sessions", null, ANN);
        String id = created.json().string("id");
        app.post("/api/v1/sessions/" + id + "/execute", "{\"code\":\"x = 6\\nopen('a.txt','w').write('hi')\"}", created.json().string("token"));
        // the second device: only the key
        SessionList listed = WireCodec.decodeSessionList(app.get("/api/v1/sessions", ANN).body());
        assertThat(listed.sessions()).extracting(s -> s.id()).contains(id);
        TestApp.Response run = app.post("/api/v1/sessions/" + id + "/execute", "{\"code\":\"x * 7\"}", ANN);
        assertThat(run.status()).as(run.body()).isEqualTo(200);
        assertThat(run.body()).contains("42");
        assertThat(app.get("/api/v1/sessions/" + id + "/events", ANN).body()).contains("x * 7");
        assertThat(app.get("/api/v1/sessions/" + id + "/files", ANN).body()).contains("a.txt");
        assertThat(app.get("/api/v1/sessions/" + id + "/files/a.txt", ANN).body()).isEqualTo("hi");
        assertThat(app.get("/api/v1/sessions/" + id + "/notebook.ipynb", ANN).status()).isEqualTo(200);
        try (WsClient ws = WsClient.connect(app.wsUri(id), null)) {
            ws.send(new ClientMessage.Hello(ANN, 0));
            ServerMessage first = ws.next(10_000);
            assertThat(first).isInstanceOf(ServerMessage.Welcome.class);
            assertThat(((ServerMessage.Welcome) first).sessionId()).isEqualTo(id);
        }
        assertThat(app.delete("/api/v1/sessions/" + id, ANN).status()).isEqualTo(204);
        assertThat(app.get("/api/v1/sessions/" + id, ANN).status()).isEqualTo(404);
    }

    @Test
    void another_key_or_an_embed_key_opens_nothing_of_it() throws Exception {
        TestApp.Response created = app.post("/api/v1/sessions", null, ANN);
        String id = created.json().string("id");
        try {
            for (String other : new String[] {BOB, EMBED}) {
                assertThat(app.post("/api/v1/sessions/" + id + "/execute", "{\"code\":\"1\"}", other).status()).isEqualTo(404);
                assertThat(app.get("/api/v1/sessions/" + id + "/events", other).status()).isEqualTo(404);
                assertThat(app.get("/api/v1/sessions/" + id + "/files", other).status()).isEqualTo(404);
                assertThat(app.delete("/api/v1/sessions/" + id, other).status()).isEqualTo(404);
                try (WsClient ws = WsClient.connect(app.wsUri(id), null)) {
                    ws.send(new ClientMessage.Hello(other, 0));
                    assertThat(ws.closedWith().get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(4404);
                }
            }
            assertThat(WireCodec.decodeSessionList(app.get("/api/v1/sessions", BOB).body()).sessions())
                    .extracting(s -> s.id()).doesNotContain(id);
            assertThat(app.get("/api/v1/sessions/" + id, created.json().string("token")).status()).isEqualTo(200);
        } finally {
            app.delete("/api/v1/sessions/" + id, ANN);
        }
    }
}
