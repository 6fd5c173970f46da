package dev.codeinterp.server.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one home of the Content-Security-Policy: a policy is built from directives (never edited as
 * text), and every policy the server sends is one of the named ones below, so a change to the app's
 * policy reaches the pages derived from it, and a test holds every served page to what is said here.
 */
final class ContentSecurityPolicy {
    private final Map<String, List<String>> directives;

    private ContentSecurityPolicy(Map<String, List<String>> directives) {
        this.directives = directives;
    }

    /** Nothing allowed: {@code default-src 'none'}. */
    static ContentSecurityPolicy none() {
        return empty().with("default-src", "'none'");
    }

    private static ContentSecurityPolicy empty() {
        return new ContentSecurityPolicy(new LinkedHashMap<>());
    }

    /** A copy with {@code directive} set to exactly these sources (none: a flag such as {@code sandbox}). */
    ContentSecurityPolicy with(String directive, String... sources) {
        Map<String, List<String>> copy = new LinkedHashMap<>(directives);
        copy.put(directive, List.of(sources));
        return new ContentSecurityPolicy(copy);
    }

    /** A copy with these sources added to {@code directive}, each once, in order. */
    ContentSecurityPolicy plus(String directive, String... sources) {
        List<String> merged = new ArrayList<>(directives.getOrDefault(directive, List.of()));
        for (String s : sources) {
            if (!merged.contains(s)) {
                merged.add(s);
            }
        }
        return with(directive, merged.toArray(String[]::new));
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        directives.forEach((name, sources) -> parts.add(sources.isEmpty() ? name : name + " " + String.join(" ", sources)));
        return String.join("; ", parts);
    }

    /** The app's pages: our scripts and styles only, Pyodide's WebAssembly, framed by no one. */
    static final ContentSecurityPolicy APP = none()
            .with("default-src", "'self'")
            .with("script-src", "'self'", "'wasm-unsafe-eval'")
            .with("style-src", "'self'")
            .with("img-src", "'self'", "data:", "blob:")
            .with("frame-src", "'self'", "blob:", "data:")
            .with("connect-src", "'self'")
            .with("object-src", "'none'")
            .with("base-uri", "'none'")
            .with("form-action", "'self'")
            .with("frame-ancestors", "'none'");

    /** JSON errors and refusals: nothing to run, render or frame. */
    static final ContentSecurityPolicy ERROR = none().with("frame-ancestors", "'none'");

    /** A workspace file or notebook download: even rendered, it runs in an opaque, script-less origin. */
    static final ContentSecurityPolicy DOWNLOAD = empty().with("sandbox").with("default-src", "'none'");

    /**
     * {@code /embed}: the app's policy, framed by the embed origins; connections also to blob: (a
     * workspace file the widget fetched into a blob: URL of its own, read back) and to the embed
     * origins (the {@code files} option's manifest and files come from the host's side).
     */
    static ContentSecurityPolicy embed(String embedOrigins) {
        return APP.with("frame-ancestors", embedOrigins).plus("connect-src", "blob:", embedOrigins);
    }

    /**
     * The frame that renders HTML outputs: loaded in a sandbox without allow-same-origin, it may run
     * the output's scripts but reach no network, and be framed only by the app (or by the app's embed
     * widget: frame-ancestors checks every ancestor, so the pages that may frame the widget are
     * listed too). The one script of ours it may load is plotly.js, which draws Plotly outputs.
     */
    static ContentSecurityPolicy outputFrame(String origin, String embedAncestors) {
        return none()
                .with("script-src", "'unsafe-inline'", origin + SecurityHeaders.PLOTLY_SCRIPT)
                .with("style-src", "'unsafe-inline'")
                .with("img-src", "data:", "blob:")
                .with("font-src", "data:")
                .with("frame-ancestors", "'self'", embedAncestors);
    }

    /**
     * The local runtime page: scripts only from our runtime and Pyodide paths, the worker only from
     * a blob: of the page itself, and connections only to the listed asset paths, so whatever the
     * code Python runs computes stays in the browser. A blob: worker inherits this policy.
     */
    static ContentSecurityPolicy localRuntime(String origin, String embedAncestors, List<String> scriptSources,
                                              List<String> connectSources) {
        return none()
                .with("script-src", scriptSources.toArray(String[]::new)).plus("script-src", "'wasm-unsafe-eval'")
                .with("worker-src", "blob:")
                .plus("connect-src", connectSources.toArray(String[]::new))
                .with("base-uri", "'none'")
                .with("form-action", "'none'")
                .with("frame-ancestors", origin, embedAncestors);
    }

    /** Local mode's assistant relay: its one inline script by hash, connections only to the model endpoint, framed by the app. */
    static ContentSecurityPolicy assistantRelay(String scriptHash, String endpoint, String origin) {
        return none()
                .with("script-src", scriptHash)
                .with("connect-src", endpoint)
                .with("base-uri", "'none'")
                .with("form-action", "'none'")
                .with("frame-ancestors", origin);
    }
}
