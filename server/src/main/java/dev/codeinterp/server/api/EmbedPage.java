package dev.codeinterp.server.api;

import dev.codeinterp.model.embed.EmbedMessage;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.server.config.EmbedOrigins;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /embed}: the widget's page, the one page of ours other sites may frame. Its CSP is the
 * app's except {@code frame-ancestors}, which lists {@code CODEINTERP_EMBED_ORIGINS} (and blob: to
 * read its own blob: URLs back); the same
 * list goes into the page (a JSON data block) so the widget can check its parent's origin itself
 * before it says a word to it. The template is the web jar's {@code public/embed.html}.
 */
final class EmbedPage {
    static final String PATH = "/embed";
    private static final String TEMPLATE = "/public/embed.html";

    private final String page;
    private final String csp;

    private EmbedPage(String template, EmbedOrigins origins) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("version", (long) EmbedMessage.VERSION);
        config.put("origins", origins.sources());
        // A JSON data block inside <script>: "<" escaped so no value can close the element.
        this.page = template.replace("{{CONFIG}}", Json.write(config).replace("<", "\\u003c"));
        this.csp = ContentSecurityPolicy.embed(origins.csp()).toString();
    }

    static void configure(JavalinConfig config, EmbedOrigins origins) {
        try (InputStream in = EmbedPage.class.getResourceAsStream(TEMPLATE)) {
            if (in == null) {
                return; // built without the web module: no widget, as no app
            }
            EmbedPage embed = new EmbedPage(new String(in.readAllBytes(), StandardCharsets.UTF_8), origins);
            config.routes.get(PATH, embed::serve);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void serve(Context ctx) {
        ctx.header("Content-Security-Policy", csp);
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType("text/html; charset=utf-8").result(page);
    }
}
