package dev.codeinterp.server.api;

import dev.codeinterp.model.json.JsonObject;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

/**
 * The files the pyodide-assets module placed on the classpath, as its manifest lists them: the
 * Pyodide core ({@code pyodide/}) and our runtime ({@code runtime/}). Only listed names can be
 * served, so no request path can reach anything else. Compressible files are stored gzipped;
 * their bytes are read once and kept (about 4 MiB in all).
 */
final class LocalAssetBundle {
    static final String ROOT = "/pyodide-assets/";

    private final String pyodideVersion;
    private final String runtimeHash;
    private final Map<String, Asset> assets;
    private final Map<String, byte[]> stored = new ConcurrentHashMap<>();

    /** One servable file: its size, and its gzipped size when it is stored gzipped. */
    record Asset(String path, long size, Long gzipSize) {
        boolean gzipped() {
            return gzipSize != null;
        }

        String name() {
            return path.substring(path.lastIndexOf('/') + 1);
        }
    }

    private LocalAssetBundle(String pyodideVersion, String runtimeHash, Map<String, Asset> assets) {
        this.pyodideVersion = pyodideVersion;
        this.runtimeHash = runtimeHash;
        this.assets = assets;
    }

    /** The bundle on the classpath, or empty when the server was built without pyodide-assets. */
    static Optional<LocalAssetBundle> load() {
        try (InputStream in = LocalAssetBundle.class.getResourceAsStream(ROOT + "manifest.json")) {
            if (in == null) {
                return Optional.empty();
            }
            JsonObject manifest = JsonObject.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            Map<String, Asset> assets = new ConcurrentHashMap<>();
            JsonObject files = manifest.object("files");
            for (String path : files.asMap().keySet()) {
                JsonObject file = files.object(path);
                assets.put(path, new Asset(path, file.integer("size"), file.optIntegerOrNull("gzip")));
            }
            return Optional.of(new LocalAssetBundle(manifest.string("pyodide"), manifest.string("runtime"), Map.copyOf(assets)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the local runtime's manifest", e);
        }
    }

    String pyodideVersion() {
        return pyodideVersion;
    }

    /** A hash of the runtime's files: its URL path segment, so those URLs may be cached forever. */
    String runtimeHash() {
        return runtimeHash;
    }

    Optional<Asset> find(String group, String name) {
        return Optional.ofNullable(assets.get(group + "/" + name));
    }

    /** The asset as stored: gzipped when {@link Asset#gzipped()}. */
    byte[] stored(Asset asset) {
        return stored.computeIfAbsent(asset.path(), path -> {
            String resource = ROOT + path + (asset.gzipped() ? ".gz" : "");
            try (InputStream in = LocalAssetBundle.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("the manifest lists " + resource + " but the jar lacks it");
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** The asset's own bytes, inflated if it is stored gzipped (for clients without gzip). */
    InputStream identity(Asset asset) throws IOException {
        InputStream in = new ByteArrayInputStream(stored(asset));
        return asset.gzipped() ? new GZIPInputStream(in) : in;
    }

    /** The runtime page's text (it is small; stored gzipped like the rest). */
    String text(Asset asset) {
        try (InputStream in = identity(asset)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
