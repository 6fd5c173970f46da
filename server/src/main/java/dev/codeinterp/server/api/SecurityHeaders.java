package dev.codeinterp.server.api;

import io.javalin.http.Context;

/**
 * Headers every answer carries: a strict CSP, no sniffing, no referrer leaks, no framing of the app,
 * and cross-origin isolation (COOP + COEP), which lets local mode interrupt Python through a
 * SharedArrayBuffer instead of discarding the interpreter.
 */
final class SecurityHeaders {
    private SecurityHeaders() {
    }

    static final String RUNTIME_PAGE = "/local/runtime.html";

    /** plotly.js as the web build vendors it: loaded by the output frame, whose origin is opaque. */
    static final String PLOTLY_SCRIPT = "/js/vendor/plotly/plotly.min.js";

    /** {@code embedAncestors}: the CSP sources that may frame the embed widget (its page sets its own CSP). */
    static void apply(Context ctx, String embedAncestors) {
        String path = ctx.path();
        boolean outputFrame = path.equals("/frame.html");
        boolean framedPage = path.equals(RUNTIME_PAGE) || path.equals(AssistantRelayPage.PATH); // framed by the app, CSP their own
        boolean embedPage = path.equals(EmbedPage.PATH);
        ContentSecurityPolicy csp = outputFrame ? ContentSecurityPolicy.outputFrame(LocalRuntimeAssets.origin(ctx), embedAncestors)
                : ContentSecurityPolicy.APP;
        ctx.header("Content-Security-Policy", csp.toString());
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
        if (!embedPage) {
            // the widget's page is framed by other sites: its CSP frame-ancestors says which
            ctx.header("X-Frame-Options", outputFrame || framedPage ? "SAMEORIGIN" : "DENY");
        }
        ctx.header("Cross-Origin-Opener-Policy", "same-origin");
        ctx.header("Cross-Origin-Embedder-Policy", "require-corp");
        if (!framedPage && (path.startsWith("/pyodide/") || path.startsWith("/local/"))) {
            // Fetched by the runtime frame and its worker, whose origin is opaque ("null"): to them
            // our own origin is another one. Public, credential-free static files.
            ctx.header("Access-Control-Allow-Origin", "*");
            ctx.header("Cross-Origin-Resource-Policy", "cross-origin");
        } else if (embedPage || path.equals("/embed.js") || path.equals(PLOTLY_SCRIPT)) {
            // framed by, and loaded as a script into, other sites' pages (plotly.js: into our
            // output frames, whose origin is opaque)
            ctx.header("Cross-Origin-Resource-Policy", "cross-origin");
        } else {
            ctx.header("Cross-Origin-Resource-Policy", "same-origin");
        }
        if (path.startsWith("/api/")) {
            ctx.header("Cache-Control", "no-store");
        }
    }
}
