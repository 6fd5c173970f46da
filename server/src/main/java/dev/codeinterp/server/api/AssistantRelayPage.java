package dev.codeinterp.server.api;

import dev.codeinterp.model.assistant.EndpointOrigin;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Local mode's assistant relay: {@code /local/assistant-relay.html?endpoint=<origin>}, the one page
 * of ours that may reach a model endpoint from the browser. The app frames it sandboxed without
 * allow-same-origin (opaque origin: none of the app's storage or credentials) only once the person
 * configured an endpoint, and its CSP lets it connect to exactly that origin. The origin goes into
 * a header, so it is checked here strictly ({@link EndpointOrigin}, the rule the browser
 * applied before keeping it); anything else is a 400 and no page.
 */
final class AssistantRelayPage {
    static final String PATH = "/local/assistant-relay.html";
    private final String page;
    private final String scriptHash;

    AssistantRelayPage() {
        try (InputStream in = AssistantRelayPage.class.getResourceAsStream("/assistant/relay.html")) {
            if (in == null) {
                throw new IllegalStateException("assistant/relay.html is missing from the server's resources");
            }
            page = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String script = page.substring(page.indexOf("<script>") + "<script>".length(), page.indexOf("</script>"));
        try {
            scriptHash = "'sha256-" + Base64.getEncoder().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(script.getBytes(StandardCharsets.UTF_8))) + "'";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    void page(Context ctx) {
        String endpoint = endpointOrigin(ctx.queryParam("endpoint"));
        String origin = LocalRuntimeAssets.origin(ctx);
        // the inline script by its hash (no other script), connections only to the endpoint, framed only by the app
        ctx.header("Content-Security-Policy", ContentSecurityPolicy.assistantRelay(scriptHash, endpoint, origin).toString());
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType("text/html; charset=utf-8").result(page);
    }

    /** The endpoint's origin as it may appear in the CSP, or a 400 saying what is wrong. */
    static String endpointOrigin(String value) {
        if (value == null || value.isEmpty()) {
            throw new BadRequestResponse("endpoint: the origin of the model endpoint is required, e.g. http://localhost:11434");
        }
        if (!EndpointOrigin.valid(value)) {
            throw new BadRequestResponse("endpoint: only an http or https origin (scheme://host[:port], lowercase, no path) is accepted");
        }
        return value;
    }
}
