package dev.codeinterp.server.api;

import io.javalin.http.Context;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /api/v1/openapi.json}: the OpenAPI 3.1 description of the REST API. It is a
 * hand-written resource rather than generated: the wire shapes are written by hand-made codecs
 * (WireCodec), not derived from annotated types, so there is nothing to generate it from that
 * would be more exact than a reviewed document; the tests keep it honest by checking every
 * answer the contract tests receive against it. Open to all, like /healthz: it holds no data.
 */
final class OpenApiDocument {
    static final String RESOURCE = "/api/openapi.json";
    private final byte[] document;

    OpenApiDocument() {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the server jar");
            }
            this.document = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void serve(Context ctx) {
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType("application/json").result(document);
    }
}
