package dev.codeinterp.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.codeinterp.server.testing.DocumentedApi;
import dev.codeinterp.server.testing.TestApp;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The OpenAPI 3.1 document: valid, served, and a judge that fails on what it does not document.
 * (Every answer of every test that goes through {@link TestApp} is checked against it as well.)
 */
class OpenApiDocumentTest {
    private static final DocumentedApi API = DocumentedApi.shipped();
    private static final Map<String, List<String>> JSON = Map.of("content-type", List.of("application/json"));
    private static final String CREATED = "{\"id\":\"a1\",\"token\":\"t\",\"runtime\":\"runc\"}";

    @Test
    void the_document_is_valid_openapi_3_1() {
        assertThat(API.problems()).isEmpty();
    }

    @Test
    void a_broken_document_is_reported() {
        String text = API.document().toString().replace("#/components/schemas/FileEntry", "#/components/schemas/Nothing");
        assertThat(new DocumentedApi(text).problems()).isNotEmpty();
    }

    @Test
    void the_server_serves_the_document_it_ships() {
        TestApp app = TestApp.shared("runc");
        TestApp.Response r = app.get("/api/v1/openapi.json", null);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.headers().get("content-type").get(0)).startsWith("application/json");
        assertThat(new DocumentedApi(r.body()).document()).isEqualTo(API.document());
    }

    @Test
    void the_reference_page_is_served_from_this_server_alone() {
        TestApp app = TestApp.shared("runc");
        TestApp.Response page = app.get("/docs/api", null);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.headers().get("content-type").get(0)).startsWith("text/html");
        assertThat(page.body()).contains("/docs/api.js").contains("/docs/api.css");
        TestApp.Response script = app.get("/docs/api.js", null);
        assertThat(script.headers().get("content-type").get(0)).startsWith("text/javascript");
        assertThat(script.body()).contains("/api/v1/openapi.json").doesNotContain("innerHTML");
        for (String body : List.of(page.body(), script.body(), app.get("/docs/api.css", null).body())) {
            assertThat(body).doesNotContainPattern("(src|href)=\"(https?:)?//").doesNotContain("@import");
        }
    }

    @Test
    void every_route_of_the_server_is_documented() {
        assertThat(API.document().path("paths").fieldNames()).toIterable().containsExactlyInAnyOrder(
                "/healthz", "/healthz/room", "/metrics", "/api/v1/openapi.json", "/api/v1/execute", "/api/v1/sessions", "/api/v1/sessions/{id}",
                "/api/v1/sessions/{id}/execute", "/api/v1/sessions/{id}/events", "/api/v1/sessions/{id}/interrupt",
                "/api/v1/sessions/{id}/restart", "/api/v1/sessions/{id}/suspend", "/api/v1/sessions/{id}/fork", "/api/v1/sessions/{id}/files", "/api/v1/sessions/{id}/files/{name}",
                "/api/v1/sessions/{id}/notebook.ipynb", "/api/v1/sessions/{id}/ws", "/internal/v1/sessions/{id}");
    }

    @Test
    void a_documented_answer_passes() {
        API.check("POST", URI.create("http://h/api/v1/sessions"), 201, JSON, CREATED);
        API.check("POST", URI.create("http://h/api/v1/sessions"), 429,
                Map.of("content-type", List.of("application/json"), "retry-after", List.of("30")),
                "{\"error\":\"over quota\",\"limit\":\"sessions_per_client\",\"retry_after\":30}");
    }

    @Test
    void an_undocumented_field_fails() {
        assertThatThrownBy(() -> API.check("POST", URI.create("http://h/api/v1/sessions"), 201, JSON,
                CREATED.replace("}", ",\"owner\":\"alice\"}")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("owner");
    }

    @Test
    void a_missing_or_mistyped_field_fails() {
        assertThatThrownBy(() -> API.check("POST", URI.create("http://h/api/v1/sessions"), 201, JSON,
                "{\"id\":\"a1\",\"runtime\":\"runc\"}")).isInstanceOf(AssertionError.class).hasMessageContaining("token");
        assertThatThrownBy(() -> API.check("GET", URI.create("http://h/api/v1/sessions/a1/files"), 200, JSON,
                "{\"files\":[],\"used_bytes\":\"0\",\"limit_bytes\":1,\"max_upload_bytes\":1}"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("used_bytes");
    }

    @Test
    void a_real_answer_with_a_field_the_document_lacks_fails() {
        TestApp app = TestApp.shared("runc");
        TestApp.Response created = app.post("/api/v1/sessions", "", null);
        ObjectNode edited = API.document().deepCopy();
        ObjectNode schema = (ObjectNode) edited.at("/components/schemas/SessionCreated");
        ((ObjectNode) schema.get("properties")).remove("runtime");
        ((ArrayNode) schema.get("required")).remove(2);
        DocumentedApi withoutRuntime = new DocumentedApi(edited.toString());
        assertThatThrownBy(() -> withoutRuntime.check("POST", app.uri("/api/v1/sessions"), created.status(), created.headers(),
                created.body())).isInstanceOf(AssertionError.class).hasMessageContaining("runtime");
        TestApp.SessionRef s = new TestApp.SessionRef(created.json().string("id"), created.json().string("token"));
        app.delete("/api/v1/sessions/" + s.id(), s.token());
    }

    @Test
    void an_undocumented_status_fails() {
        assertThatThrownBy(() -> API.check("DELETE", URI.create("http://h/api/v1/sessions/a1"), 418, JSON, "{\"error\":\"teapot\"}"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("undocumented status");
    }

    @Test
    void an_undocumented_event_type_fails() {
        String history = "{\"session_id\":\"s\",\"last_seq\":1,\"events\":[{\"seq\":1,\"execution_id\":\"e\",\"time\":1,"
                + "\"type\":\"paused\"}]}";
        assertThatThrownBy(() -> API.check("GET", URI.create("http://h/api/v1/sessions/s/events"), 200, JSON, history))
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void a_documented_header_that_is_missing_fails() {
        assertThatThrownBy(() -> API.check("POST", URI.create("http://h/api/v1/execute"), 401, JSON, "{\"error\":\"key\"}"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("WWW-Authenticate");
    }

    @Test
    void an_undocumented_api_route_fails() {
        assertThatThrownBy(() -> API.check("GET", URI.create("http://h/api/v1/sessions/a1/secrets"), 200, JSON, "{}"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("undocumented route");
    }
}
