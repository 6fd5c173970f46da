package dev.codeinterp.server.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where a cell's {@code packages} come from and how long getting them may take (docs/settings.md).
 * {@code allowlist} null means the list shipped in the server; the cache holds fetched artifacts on
 * the host, shared by every session.
 */
public record PackageSettings(Path allowlist, Path cacheDir, String pythonIndexUrl, String npmRegistry,
                              Duration fetchTimeout, Duration installTimeout) {

    public PackageSettings {
        requireHttpUrl("PYTHON_INDEX_URL", pythonIndexUrl);
        requireHttpUrl("NPM_REGISTRY", npmRegistry);
        if (fetchTimeout.isNegative() || fetchTimeout.isZero() || installTimeout.isNegative() || installTimeout.isZero()) {
            throw new IllegalArgumentException("PACKAGE_FETCH_TIMEOUT and PACKAGE_INSTALL_TIMEOUT must be positive");
        }
    }

    static PackageSettings read(EnvReader r, Path dataDir) {
        String allowlist = r.string("PACKAGES_ALLOWLIST", null);
        return new PackageSettings(
                allowlist == null ? null : Path.of(allowlist).toAbsolutePath(),
                Path.of(r.string("PACKAGE_CACHE", dataDir.resolve("package-cache").toString())).toAbsolutePath(),
                r.string("PYTHON_INDEX_URL", "https://pypi.org/simple"),
                r.string("NPM_REGISTRY", "https://registry.npmjs.org/"),
                r.duration("PACKAGE_FETCH_TIMEOUT", Duration.ofMinutes(2)),
                r.duration("PACKAGE_INSTALL_TIMEOUT", Duration.ofMinutes(1)));
    }

    private static void requireHttpUrl(String name, String value) {
        try {
            URI uri = new URI(value);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return;
            }
        } catch (java.net.URISyntaxException e) {
            // said below
        }
        throw new IllegalArgumentException("CODEINTERP_" + name + " must be an http(s) URL, got " + value);
    }
}
