package dev.codeinterp.server.api;

import dev.codeinterp.model.local.LocalRuntimeConfig;
import dev.codeinterp.model.local.WheelIndex;
import dev.codeinterp.model.rules.MimeTypes;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.config.Settings;
import dev.codeinterp.server.files.Wheelhouse;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.NotFoundResponse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Serves local mode: the sandboxed runtime page, its scripts, the Pyodide core and the wheelhouse.
 *
 * <pre>
 * /local/runtime.html          the page the app frames (no-cache; its CSP is built here per request)
 * /local/&lt;hash&gt;/&lt;file&gt;        the frame's scripts, the worker's modules, pyodide_host.py, python-files.json (immutable)
 * /local/&lt;hash&gt;/codeinterp_runner/&lt;module&gt;.py   the runner package, the sandbox's own (immutable)
 * /pyodide/&lt;version&gt;/&lt;file&gt;    the Pyodide core from npm (immutable)
 * /local/wheels/index.json     the wheelhouse's wheels and the modules each provides (no-cache)
 * /local/wheels/&lt;file&gt;.whl     one wheel (no-cache: a deployer may replace it)
 * </pre>
 *
 * Static files are sent gzipped as the build stored them when the client accepts gzip. The CORS
 * and cross-origin headers these paths need are {@link SecurityHeaders}' to set.
 */
final class LocalRuntimeAssets {
    static final String WHEELS_PATH = "/local/wheels/";
    private static final Pattern AUTHORITY = Pattern.compile("[A-Za-z0-9.\\-]+(:[0-9]{1,5})?|\\[[0-9A-Fa-f:.]+\\](:[0-9]{1,5})?");
    private static final String IMMUTABLE = "public, max-age=31536000, immutable";

    private final LocalAssetBundle bundle;
    private final Wheelhouse wheelhouse;
    private final String indexPath;
    private final String runtimePath;
    private final PackageSource packages;
    private final String pageTemplate;
    /** The pages that may frame the embed widget, which may hold this frame too. */
    private final String embedAncestors;

    private LocalRuntimeAssets(LocalAssetBundle bundle, Settings settings) {
        this.bundle = bundle;
        this.wheelhouse = new Wheelhouse(settings.wheelhouseDir());
        this.indexPath = "/pyodide/" + bundle.pyodideVersion() + "/";
        this.runtimePath = "/local/" + bundle.runtimeHash() + "/";
        this.packages = PackageSource.of(settings.pyodidePackagesUrl(), indexPath);
        this.embedAncestors = settings.embedOrigins().csp();
        LocalRuntimeConfig page = new LocalRuntimeConfig(bundle.pyodideVersion(), indexPath, packages.url(), runtimePath,
                WHEELS_PATH, settings.maxUploadBytes(), settings.defaultTimeout().toMillis(), settings.maxTimeout().toMillis(),
                settings.outputCapBytes(),
                settings.inputTimeout().toMillis(), settings.interruptGrace().toMillis());
        // A JSON data block inside <script>: "<" escaped so no value can close the element.
        String config = WireCodec.encode(page).replace("<", "\\u003c");
        this.pageTemplate = bundle.find("runtime", "runtime.html")
                .map(bundle::text)
                .orElseThrow(() -> new IllegalStateException("the local runtime bundle lacks runtime.html"))
                .replace("{{CONFIG}}", config)
                .replace("{{RUNTIME_URL}}", runtimePath);
    }

    static void configure(JavalinConfig config, Settings settings) {
        Optional<LocalAssetBundle> bundle = LocalAssetBundle.load();
        if (bundle.isEmpty()) {
            return; // built without pyodide-assets: local mode is simply not offered
        }
        LocalRuntimeAssets assets = new LocalRuntimeAssets(bundle.get(), settings);
        var routes = config.routes;
        routes.get("/local/runtime.html", assets::runtimePage);
        routes.get("/local/{dir}/{file}", assets::localFile);
        routes.get("/local/{dir}/{folder}/<file>", assets::runtimeFolderFile); // <file> may hold folders (the IPython shim)
        routes.get("/pyodide/{version}/{file}", assets::pyodideFile);
    }

    /** The framed page: its configuration inline, and a CSP that limits it to our assets. */
    void runtimePage(Context ctx) {
        String origin = origin(ctx);
        // blob: scripts are the JavaScript worker's cells (js-worker.js loads each with importScripts
        // instead of eval, which stays refused); they fetch nothing, and connect-src is unchanged
        ctx.header("Content-Security-Policy", ContentSecurityPolicy.localRuntime(origin, embedAncestors,
                List.of(origin + runtimePath, origin + indexPath, "blob:"),
                List.of(origin + runtimePath, origin + indexPath, origin + WHEELS_PATH, packages.cspSource(origin))).toString());
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType(mimeType("runtime.html")).result(pageTemplate);
    }

    void pyodideFile(Context ctx) {
        if (!ctx.pathParam("version").equals(bundle.pyodideVersion())) {
            throw new NotFoundResponse();
        }
        send(ctx, "pyodide", ctx.pathParam("file"));
    }

    void localFile(Context ctx) throws IOException {
        String dir = ctx.pathParam("dir");
        String file = ctx.pathParam("file");
        if (dir.equals("wheels")) {
            if (file.equals("index.json")) {
                wheelIndex(ctx);
            } else {
                wheel(ctx, file);
            }
        } else if (dir.equals(bundle.runtimeHash())) {
            send(ctx, "runtime", file);
        } else {
            throw new NotFoundResponse();
        }
    }

    /** A file in a folder of the runtime (the runner package's modules, at any depth): served only if the manifest lists it. */
    void runtimeFolderFile(Context ctx) {
        if (!ctx.pathParam("dir").equals(bundle.runtimeHash())) {
            throw new NotFoundResponse();
        }
        send(ctx, "runtime", ctx.pathParam("folder") + "/" + ctx.pathParam("file"));
    }

    private void send(Context ctx, String group, String name) {
        LocalAssetBundle.Asset asset = bundle.find(group, name)
                .filter(a -> !a.name().equals("runtime.html")) // only as the page, with its CSP
                .orElseThrow(NotFoundResponse::new);
        ctx.header("Cache-Control", IMMUTABLE);
        ctx.header("Vary", "Accept-Encoding");
        ctx.contentType(mimeType(name));
        if (asset.gzipped() && acceptsGzip(ctx.header("Accept-Encoding"))) {
            ctx.header("Content-Encoding", "gzip");
            ctx.result(bundle.stored(asset));
        } else if (asset.gzipped()) {
            try {
                ctx.result(bundle.identity(asset)); // a client without gzip gets it inflated
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            ctx.result(bundle.stored(asset));
        }
    }

    private void wheelIndex(Context ctx) {
        List<WheelIndex.Wheel> wheels = wheelhouse.list().stream()
                .map(w -> new WheelIndex.Wheel(w.file(), w.size(), w.imports()))
                .toList();
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType("application/json").result(WireCodec.encode(new WheelIndex(wheels)));
    }

    private void wheel(Context ctx, String file) throws IOException {
        Path path = wheelhouse.find(file).orElseThrow(NotFoundResponse::new);
        ctx.header("Cache-Control", "no-cache");
        ctx.header("Content-Length", String.valueOf(Files.size(path)));
        ctx.contentType("application/zip").result(Files.newInputStream(path));
    }

    /** The shared table's type; text is always UTF-8 here, and says so. */
    static String mimeType(String name) {
        String type = MimeTypes.of(name);
        return type.startsWith("text/") ? type + "; charset=utf-8" : type;
    }

    static boolean acceptsGzip(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        for (String part : acceptEncoding.split(",")) {
            String[] coding = part.strip().split(";");
            if (coding[0].strip().equalsIgnoreCase("gzip")) {
                for (int i = 1; i < coding.length; i++) {
                    String parameter = coding[i].strip().replace(" ", "");
                    if (parameter.equals("q=0") || parameter.matches("q=0\\.0*")) {
                        return false;
                    }
                }
                return true;
            }
        }
        return false;
    }

    /** The origin the browser used to reach us, for the runtime's CSP (path-limited sources need one). */
    static String origin(Context ctx) {
        URI url = URI.create(ctx.url());
        String authority = url.getRawAuthority();
        if (authority == null || !AUTHORITY.matcher(authority).matches()) {
            throw new BadRequestResponse("unusable Host header");
        }
        return url.getScheme() + "://" + authority;
    }

    /**
     * Where loadPyodide takes packages from. The default ({@code /pyodide/}) means our own copy of
     * the core, at its versioned path; a path means this server; an http(s) URL a distribution
     * elsewhere (of the same Pyodide version), which the runtime's CSP must then allow too.
     */
    record PackageSource(String url, boolean sameOrigin) {
        static PackageSource of(String configured, String ownIndexPath) {
            String value = configured == null || configured.isBlank() ? "/pyodide/" : configured.strip();
            if (!value.endsWith("/")) {
                value += "/";
            }
            if (value.equals("/pyodide/")) {
                return new PackageSource(ownIndexPath, true);
            }
            if (value.startsWith("/") && !value.startsWith("//")) {
                return new PackageSource(value, true);
            }
            URI uri;
            try {
                uri = URI.create(value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("CODEINTERP_PYODIDE_PACKAGES_URL is not a URL: " + configured, e);
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null
                    || uri.getRawQuery() != null || uri.getRawFragment() != null || value.contains(";") || value.contains(" ")) {
                throw new IllegalArgumentException(
                        "CODEINTERP_PYODIDE_PACKAGES_URL must be a path on this server or an http(s) URL of a directory, got "
                                + configured);
            }
            return new PackageSource(value, false);
        }

        String cspSource(String origin) {
            return sameOrigin ? origin + url : url;
        }
    }
}
