package dev.codeinterp.server.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The server's OpenAPI document as a judge of real answers: for a request and its answer it finds
 * the operation by method and path template, the response by status, and checks the declared
 * headers are there and the JSON body validates against the response's schema (JSON Schema
 * 2020-12, which OpenAPI 3.1 uses; the schemas are closed, so an undocumented field fails).
 * {@link TestApp} asks it about every answer the tests receive, so a wire
 * change without a matching change of the document fails the build.
 */
public final class DocumentedApi {
    public static final String RESOURCE = "/api/openapi.json";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** What the API answers outside the document's routes: these must still be errors of the documented shape. */
    private static final Pattern API_PATHS = Pattern.compile("/api/.*|/healthz|/metrics");
    private static volatile DocumentedApi shared;

    private final String text;
    private final JsonNode document;
    private final List<Route> routes = new ArrayList<>();
    /** JSON Schema 2020-12: the validator the MCP SDK already brings (one version of it on the classpath). */
    private final SchemaRegistry schemas = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private final Map<String, Schema> compiled = new ConcurrentHashMap<>();

    private record Route(String template, Pattern pattern, int params) {
    }

    public DocumentedApi(String text) {
        this.text = text;
        try {
            this.document = JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException("the OpenAPI document is not JSON", e);
        }
        Iterator<String> names = document.path("paths").fieldNames();
        while (names.hasNext()) {
            String template = names.next();
            String regex = "\\Q" + template.replaceAll("\\{[^/}]+}", "\\\\E[^/]+\\\\Q") + "\\E";
            routes.add(new Route(template, Pattern.compile(regex), template.split("\\{", -1).length - 1));
        }
        routes.sort(Comparator.comparingInt(Route::params)); // a literal segment wins over a parameter
    }

    /** The document the server ships, read once. */
    public static DocumentedApi shipped() {
        if (shared == null) {
            try (InputStream in = DocumentedApi.class.getResourceAsStream(RESOURCE)) {
                shared = new DocumentedApi(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return shared;
    }

    /** What swagger-parser says is wrong with the document (empty when it is a valid OpenAPI 3.1 document). */
    public List<String> problems() {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        options.setValidateInternalRefs(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(text, null, options);
        List<String> problems = new ArrayList<>(result.getMessages() == null ? List.of() : result.getMessages());
        if (result.getOpenAPI() == null) {
            problems.add("not an OpenAPI document");
        } else if (!"3.1.0".equals(result.getOpenAPI().getOpenapi())) {
            problems.add("not OpenAPI 3.1.0: " + result.getOpenAPI().getOpenapi());
        }
        return problems;
    }

    public JsonNode document() {
        return document;
    }

    /**
     * Checks one answer; an {@link AssertionError} says what the document does not cover. Paths
     * outside the API (the web app, local-mode assets) are not its business.
     */
    public void check(String method, URI uri, int status, Map<String, List<String>> headers, String body) {
        String path = uri.getRawPath();
        String where = method + " " + path + " -> " + status;
        Route route = routes.stream().filter(r -> r.pattern().matcher(path).matches()).findFirst().orElse(null);
        JsonNode operation = route == null ? null : document.path("paths").path(route.template()).path(method.toLowerCase(Locale.ROOT));
        if (operation == null || operation.isMissingNode()) {
            if (API_PATHS.matcher(path).matches()) {
                if (status != 404 && status != 405 && status != 400) {
                    throw new AssertionError("undocumented route: " + where);
                }
                validate(where, "#/components/schemas/ApiError", body);
            }
            return;
        }
        String pointer = "/paths/" + escape(route.template()) + "/" + method.toLowerCase(Locale.ROOT) + "/responses/" + status;
        JsonNode response = resolve(document.at(pointer));
        if (response.isMissingNode()) {
            throw new AssertionError("undocumented status: " + where + " (documented: " + keys(operation.path("responses")) + ")");
        }
        checkHeaders(where, response, headers);
        String contentType = headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("content-type"))
                .flatMap(e -> e.getValue().stream()).findFirst().orElse("");
        JsonNode content = response.path("content");
        if (body == null || body.isEmpty()) {
            return;
        }
        if (contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            if (content.path("application/json").isMissingNode()) {
                throw new AssertionError("an undocumented JSON body: " + where + ": " + abbreviate(body));
            }
            validate(where, "#" + pointer + "/content/application~1json/schema", body);
        } else if (content.isMissingNode() || content.size() == 0) {
            throw new AssertionError("an undocumented body (" + contentType + "): " + where);
        } else if (content.path("*/*").isMissingNode() && !documentsType(content, contentType)) {
            throw new AssertionError("an undocumented content type " + contentType + ": " + where + " (documented: " + keys(content) + ")");
        }
    }

    /** Validates a body against the schema a JSON pointer ({@code #/...}) into the document names. */
    public void validate(String where, String schemaPointer, String body) {
        JsonNode value;
        try {
            value = JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + where + ": " + abbreviate(body));
        }
        Schema schema = compiled.computeIfAbsent(schemaPointer, p -> {
            // the whole document is the schema resource, so every "#/components/..." reference resolves within it
            ObjectNode root = JSON.createObjectNode();
            root.set("paths", document.get("paths"));
            root.set("components", document.get("components"));
            root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
            root.put("$ref", p);
            return schemas.getSchema(root.toString(), InputFormat.JSON);
        });
        List<Error> errors = schema.validate(value.toString(), InputFormat.JSON);
        if (!errors.isEmpty()) {
            throw new AssertionError("the body does not match the document: " + where + ": " + errors + "\nbody: " + abbreviate(body));
        }
    }

    private JsonNode resolve(JsonNode node) {
        while (node.has("$ref")) {
            node = document.at(node.get("$ref").asText().substring(1));
        }
        return node;
    }

    private void checkHeaders(String where, JsonNode response, Map<String, List<String>> headers) {
        Iterator<Map.Entry<String, JsonNode>> declared = response.path("headers").fields();
        while (declared.hasNext()) {
            Map.Entry<String, JsonNode> h = declared.next();
            boolean required = resolve(h.getValue()).path("required").asBoolean(false);
            boolean present = headers.keySet().stream().anyMatch(k -> k.equalsIgnoreCase(h.getKey()));
            if (required && !present) {
                throw new AssertionError("the documented header " + h.getKey() + " is missing: " + where);
            }
        }
    }

    private static boolean documentsType(JsonNode content, String contentType) {
        String base = contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
        return content.has(base);
    }

    private static String escape(String template) {
        return template.replace("~", "~0").replace("/", "~1");
    }

    private static List<String> keys(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static String abbreviate(String body) {
        return body.length() > 600 ? body.substring(0, 600) + "…" : body;
    }
}
