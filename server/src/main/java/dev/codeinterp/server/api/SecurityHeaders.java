package dev.codeinterp.server.api;

import io.javalin.http.Context;

/** Headers every answer carries: a strict CSP, no sniffing, no referrer leaks, no framing of the app. */
final class SecurityHeaders {
    private SecurityHeaders() {
    }

    /**
     * The frame that renders HTML outputs: loaded in a sandbox without allow-same-origin, it may
     * run the output's scripts but reach no network and be framed only by the app.
     */
    static final String OUTPUT_FRAME_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
            + "img-src data: blob:; font-src data:; frame-ancestors 'self'";

    static void apply(Context ctx) {
        boolean outputFrame = ctx.path().equals("/frame.html");
        ctx.header("Content-Security-Policy", outputFrame ? OUTPUT_FRAME_CSP : WebServer.CSP);
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
        ctx.header("X-Frame-Options", outputFrame ? "SAMEORIGIN" : "DENY");
        ctx.header("Cross-Origin-Opener-Policy", "same-origin");
        if (ctx.path().startsWith("/api/")) {
            ctx.header("Cache-Control", "no-store");
        }
    }
}
