package dev.codeinterp.server.api;

import dev.codeinterp.server.metrics.ServerMetrics;
import io.javalin.http.Context;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * {@code GET /metrics}: the Prometheus text format. When API keys are required it asks for one
 * like the API does (a scraper sends {@code Authorization: Bearer <key>}), since session counts,
 * rejections and timings say how the server is used.
 */
final class MetricsApi {
    private final ServerMetrics metrics;
    private final Clients clients;

    MetricsApi(ServerMetrics metrics, Clients clients) {
        this.metrics = metrics;
        this.clients = clients;
    }

    void scrape(Context ctx) throws IOException {
        clients.of(ctx); // refuses with 401 when keys are required and none of ours was sent
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 << 10);
        metrics.scrape(out);
        ctx.header("Cache-Control", "no-store");
        ctx.contentType(metrics.contentType()).result(out.toByteArray());
    }
}
