package dev.codeinterp.server.packages;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JavaScript's fetch, npm's own tools on the host in two steps: {@code npm install
 * --package-lock-only --ignore-scripts} resolves the tree into a lockfile without downloading or
 * running anything, then {@code npm pack} downloads each locked tarball. Every tarball is checked
 * against the lockfile's {@code integrity} (SHA-512) and must come from the configured registry;
 * the lockfile's paths ({@code node_modules/a/node_modules/b}) say where each goes, so the sandbox
 * lays out the same tree {@code npm install} would.
 */
final class NpmFetch implements Fetcher {
    private final String registry;
    private final Duration bound;
    private final IndexFailures failures;

    NpmFetch(String registry, Duration bound) {
        this.registry = registry.endsWith("/") ? registry : registry + "/";
        this.bound = bound;
        this.failures = IndexFailures.npm(this.registry);
    }

    @Override
    public String source() {
        return registry;
    }

    @Override
    public List<Fetched> fetch(List<PackageSpec> specs, Path dir) {
        try {
            Files.writeString(dir.resolve("package.json"), "{\"name\":\"codeinterp-fetch\",\"version\":\"0.0.0\",\"private\":true}");
            Files.writeString(dir.resolve(".npmrc"), "");
            List<String> resolve = npm(dir, "install", "--package-lock-only", "--omit=dev");
            resolve.add("--");
            specs.forEach(s -> resolve.add(s.requirement()));
            FetchTool.run(resolve, dir, Map.of(), bound, "npm install --package-lock-only", failures);

            Map<String, Locked> locked = lockedPackages(Files.readString(dir.resolve("package-lock.json"), StandardCharsets.UTF_8));
            Path out = Files.createDirectories(dir.resolve("tarballs"));
            List<String> pack = npm(dir, "pack", "--json", "--pack-destination", out.toString());
            pack.add("--");
            locked.values().stream().map(Locked::spec).distinct().forEach(pack::add);
            Map<String, String> fileBySpec = new LinkedHashMap<>();
            for (Object entry : (List<?>) Json.parse(FetchTool.run(pack, dir, Map.of(), bound, "npm pack", failures))) {
                JsonObject o = new JsonObject(castMap(entry));
                fileBySpec.put(o.string("name") + "@" + o.string("version"), o.string("filename"));
            }
            List<Fetched> fetched = new ArrayList<>();
            for (Map.Entry<String, Locked> e : locked.entrySet()) {
                String filename = fileBySpec.get(e.getValue().spec());
                if (filename == null || filename.contains("/")) {
                    throw new PackageFetchException("npm pack did not give " + e.getValue().spec());
                }
                Path file = out.resolve(filename);
                verify(file, e.getValue());
                fetched.add(new Fetched(file, e.getKey()));
            }
            return fetched;
        } catch (IOException | JsonException | ClassCastException e) {
            throw new PackageFetchException("the npm fetch failed: " + e.getMessage());
        }
    }

    private List<String> npm(Path dir, String... args) {
        List<String> command = new ArrayList<>(List.of("npm"));
        command.addAll(List.of(args));
        // one try, each request bounded: a registry that is down or silent fails the fetch at once, in one line
        command.addAll(List.of("--ignore-scripts", "--no-audit", "--no-fund", "--fetch-retries=0",
                "--fetch-timeout=" + FetchTool.requestTimeout(bound).toMillis(), "--registry", registry,
                "--cache", dir.resolve(".npm-cache").toString(), "--userconfig", dir.resolve(".npmrc").toString()));
        return command;
    }

    /** The lockfile's packages by install path, without the root, dev-only, optional and bundled ones. */
    private Map<String, Locked> lockedPackages(String lockfile) {
        JsonObject packages = JsonObject.parse(lockfile).object("packages");
        Map<String, Locked> locked = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : packages.asMap().entrySet()) {
            String path = e.getKey();
            if (path.isEmpty()) {
                continue;
            }
            JsonObject p = new JsonObject(castMap(e.getValue()));
            if (p.optBoolean("dev", false) || p.optBoolean("optional", false) || p.optBoolean("inBundle", false)) {
                continue;
            }
            if (!path.matches("(node_modules/(@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*/?)+") || path.contains("/../")) {
                throw new PackageFetchException("npm locked an unexpected path: " + PackageSpec.printable(path));
            }
            String resolved = p.optString("resolved", "");
            if (p.optBoolean("link", false) || !resolved.startsWith(registry)) {
                throw new PackageFetchException(path + " does not come from the registry " + registry + " (" + PackageSpec.printable(resolved) + ")");
            }
            String name = p.optString("name", path.substring(path.lastIndexOf("node_modules/") + "node_modules/".length()));
            locked.put(path, new Locked(name + "@" + p.string("version"), p.string("integrity")));
        }
        return locked;
    }

    /** The tarball's SHA-512 must be the one the lockfile names. */
    private static void verify(Path file, Locked locked) throws IOException {
        if (!locked.integrity().startsWith("sha512-")) {
            throw new PackageFetchException(locked.spec() + " has no SHA-512 integrity in the lockfile");
        }
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-512");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
            String actual = "sha512-" + Base64.getEncoder().encodeToString(digest.digest());
            if (!actual.equals(locked.integrity())) {
                throw new PackageFetchException(locked.spec() + " does not match its integrity hash");
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object o) {
        return (Map<String, Object>) o;
    }

    private record Locked(String spec, String integrity) {
    }
}
