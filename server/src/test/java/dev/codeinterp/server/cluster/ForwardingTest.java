package dev.codeinterp.server.cluster;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two real servers, nodes n1 and n2, on one PostgreSQL store: a request for n1's session that lands
 * on n2 (a proxy without the routing rule, or a session that moved) is answered by n1, through n2,
 * bodies streamed both ways; what n2 cannot forward it answers itself, as such.
 */
class ForwardingTest {
    private static TwoNodes nodes;
    private static TestApp n1;
    private static TestApp n2;

    @BeforeAll
    static void startTwoNodes() throws Exception {
        nodes = TwoNodes.onPostgres("forwarding", "runc", Map.of());
        n1 = nodes.n1;
        n2 = nodes.n2;
    }

    @AfterAll
    static void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    @Test
    @Timeout(120)
    void a_cell_sent_to_the_wrong_node_runs_on_the_sessions_node_and_keeps_its_state() {
        TestApp.SessionRef s = n1.createSession();
        assertThat(n2.post("/api/v1/sessions/" + s.id() + "/execute", "{\"code\":\"x = 41\"}", s.token()).status()).isEqualTo(200);
        TestApp.Response viaN2 = n2.post("/api/v1/sessions/" + s.id() + "/execute", "{\"code\":\"x + 1\"}", s.token());
        assertThat(viaN2.status()).isEqualTo(200);
        assertThat(viaN2.headers().get("x-codeinterp-node")).containsExactly("n1");
        assertThat(viaN2.json().objectList("results").get(0).string("text/plain")).isEqualTo("42");
        assertThat(n1.execute(s, "x", null).objectList("results").get(0).string("text/plain")).isEqualTo("41");

        JsonObject history = n2.get("/api/v1/sessions/" + s.id() + "/events", s.token()).json();
        TestApp.assertOneFinishedPerCell(history);
        assertThat(n2.post("/api/v1/sessions/" + s.id() + "/execute", "{\"code\":\"1\"}", "a-wrong-token").status()).isEqualTo(404);
    }

    @Test
    @Timeout(120)
    void a_file_uploaded_through_the_wrong_node_is_in_the_session_byte_for_byte_and_comes_back_the_same_way() throws Exception {
        TestApp.SessionRef s = n1.createSession();
        byte[] data = new byte[3 << 20];
        new Random(7).nextBytes(data);
        assertThat(n2.putFile(s, "blob.bin", data).status()).isEqualTo(201);
        assertThat(n1.execute(s, "import hashlib; hashlib.sha256(open('blob.bin','rb').read()).hexdigest()", null)
                .objectList("results").get(0).string("text/plain"))
                .isEqualTo("'" + java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(data)) + "'");
        HttpResponse<byte[]> back = n2.exchange(HttpRequest.newBuilder(n2.uri("/api/v1/sessions/" + s.id() + "/files/blob.bin"))
                .header("Authorization", "Bearer " + s.token()).GET().build());
        assertThat(back.statusCode()).isEqualTo(200);
        assertThat(back.headers().firstValue("content-disposition")).hasValueSatisfying(v -> assertThat(v).startsWith("attachment"));
        assertThat(back.body()).isEqualTo(data);
    }

    @Test
    void a_request_already_forwarded_once_is_answered_where_it_lands() {
        TestApp.SessionRef s = n1.createSession();
        TestApp.Response looped = n2.send(n2.request("/api/v1/sessions/" + s.id() + "/events", s.token())
                .header("X-CodeInterp-Forwarded-By", "n9").GET().build());
        assertThat(looped.status()).isEqualTo(200); // history reads from the store wherever it lands
        TestApp.Response run = n2.send(n2.request("/api/v1/sessions/" + s.id() + "/execute", s.token())
                .header("X-CodeInterp-Forwarded-By", "n9").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"code\":\"1\"}")).build());
        assertThat(run.status()).isEqualTo(503);
        assertThat(run.json().string("error")).contains("runs on node n1");
    }
}
