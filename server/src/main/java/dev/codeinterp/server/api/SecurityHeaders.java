package dev.codeinterp.server.api;

import io.javalin.http.Context;

/** Headers every answer carries: a strict CSP, no sniffing, no referrer leaks, no framing of the app. */
final class SecurityHeaders {
    private SecurityHeaders() {
    }

    static void apply(Context ctx) {
        ctx.header("Content-Security-Policy", WebServer.CSP);
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
        ctx.header("X-Frame-Options", "DENY");
        ctx.header("Cross-Origin-Opener-Policy", "same-origin");
        if (ctx.path().startsWith("/api/")) {
            ctx.header("Cache-Control", "no-store");
        }
    }
}
