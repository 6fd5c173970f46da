package dev.codeinterp.server.api;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /api/v1/openapi.json}: the OpenAPI 3.1 description of the REST API, and at
 * {@code /docs/api} a reference page rendered from it in the browser (our own script and style,
 * nothing from a CDN). The document is a hand-written resource rather than generated: the wire
 * shapes are written by hand-made codecs (WireCodec), not derived from annotated types, so there
 * is nothing to generate it from that would be more exact than a reviewed document; the tests
 * keep it honest by checking every answer the contract tests receive against it. Open to all,
 * like /healthz: it holds no data.
 */
final class OpenApiDocument {
    static final String DOCUMENT = "/api/openapi.json";

    private final byte[] document = load(DOCUMENT);
    private final byte[] page = load("/api/reference.html");
    private final byte[] script = load("/api/reference.js");
    private final byte[] style = load("/api/reference.css");

    void register(RoutesConfig routes) {
        routes.get("/api/v1/openapi.json", ctx -> serve(ctx, "application/json", document));
        routes.get("/docs/api", ctx -> serve(ctx, "text/html; charset=utf-8", page));
        routes.get("/docs/api.js", ctx -> serve(ctx, "text/javascript; charset=utf-8", script));
        routes.get("/docs/api.css", ctx -> serve(ctx, "text/css; charset=utf-8", style));
    }

    private static void serve(Context ctx, String type, byte[] body) {
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType(type).result(body);
    }

    private static byte[] load(String resource) {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the server jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
