package dev.codeinterp.server.api;

import io.javalin.http.Context;

import java.util.List;

/**
 * Headers every answer carries: a strict CSP, no sniffing, no referrer leaks, no framing of the app,
 * and cross-origin isolation (COOP + COEP), which lets local mode interrupt Python through a
 * SharedArrayBuffer instead of discarding the interpreter.
 */
final class SecurityHeaders {
    private SecurityHeaders() {
    }

    /**
     * The frame that renders HTML outputs: loaded in a sandbox without allow-same-origin, it may
     * run the output's scripts but reach no network and be framed only by the app (or by the app's
     * embed widget: frame-ancestors checks every ancestor, so the pages that may frame the widget
     * are listed too). The one script of ours it may load is plotly.js, which draws Plotly outputs.
     */
    static String outputFrameCsp(String origin, String embedAncestors) {
        return "default-src 'none'; script-src 'unsafe-inline' " + origin + PLOTLY_SCRIPT + "; style-src 'unsafe-inline'; "
                + "img-src data: blob:; font-src data:; frame-ancestors 'self' " + embedAncestors;
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
        ctx.header("Content-Security-Policy", outputFrame ? outputFrameCsp(LocalRuntimeAssets.origin(ctx), embedAncestors) : WebServer.CSP);
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

    /**
     * The local runtime page's CSP (set by its handler, per request: path-limited sources need the
     * origin). Scripts come only from our runtime and Pyodide paths, the worker only from a blob:
     * of the page itself, and connections go only to the listed asset paths: the code Python runs
     * can fetch static files there and nothing else, so whatever it computes stays in the browser.
     * A blob: worker inherits this policy.
     */
    static String runtimeCsp(String origin, String embedAncestors, List<String> scriptSources, List<String> connectSources) {
        return "default-src 'none'; "
                + "script-src " + String.join(" ", scriptSources) + " 'wasm-unsafe-eval'; "
                + "worker-src blob:; "
                + "connect-src " + String.join(" ", connectSources.stream().distinct().toList()) + "; "
                + "base-uri 'none'; form-action 'none'; "
                + "frame-ancestors " + origin + " " + embedAncestors;
    }
}
