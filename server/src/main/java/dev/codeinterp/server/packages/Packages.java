package dev.codeinterp.server.packages;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.runner.RunnerInstall;
import dev.codeinterp.server.config.PackageSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A cell's {@code packages}, from request to what the runner installs: the allowlist decides
 * ({@link #check}), the fetch step downloads with the ecosystem's own tool on the host, outside
 * every sandbox, running nothing it fetched ({@link #prepare}), the cache keeps the result by
 * content hash, and the sandbox, still offline, installs from its read-only view of the cache.
 */
public final class Packages {
    private static final Logger log = LoggerFactory.getLogger(Packages.class);
    /** More than a cell could reasonably ask for; bounds the work one request can cause. */
    public static final int MAX_PER_CELL = 32;

    private final Allowlist allowlist;
    private final PackageCache cache;
    private final Map<Language, Fetcher> fetchers;
    private final Duration fetchBound;
    private final Duration installBound;
    private final Map<String, Object> fetching = new ConcurrentHashMap<>();

    Packages(Allowlist allowlist, PackageCache cache, Map<Language, Fetcher> fetchers, Duration fetchBound, Duration installBound) {
        this.allowlist = allowlist;
        this.cache = cache;
        this.fetchers = Map.copyOf(fetchers);
        this.fetchBound = fetchBound;
        this.installBound = installBound;
    }

    /** From settings: reads the allowlist and prepares the cache folder (fails the start when either is wrong). */
    public static Packages from(PackageSettings s) {
        return new Packages(Allowlist.load(s.allowlist()), new PackageCache(s.cacheDir()).open(),
                Map.of(Language.PYTHON, new PipFetch(s.pythonIndexUrl(), s.fetchTimeout()),
                        Language.JAVASCRIPT, new NpmFetch(s.npmRegistry(), s.fetchTimeout())),
                s.fetchTimeout(), s.installTimeout());
    }

    /**
     * The request a cell may make, or a {@link PackageRefusedException} naming the first package
     * that is not a plain name or not on the allowlist. Nothing is fetched or run for a refused cell.
     */
    public PackageRequest check(Language language, List<String> names) {
        return check(language, names, "run");
    }

    /** As {@link #check(Language, List)}; a refusal says the cell did not {@code what} (run, install it). */
    public PackageRequest check(Language language, List<String> names, String what) {
        if (names == null || names.isEmpty()) {
            return PackageRequest.NONE;
        }
        if (names.size() > MAX_PER_CELL) {
            throw new PackageRefusedException("a cell may ask for at most " + MAX_PER_CELL + " packages, got " + names.size());
        }
        Map<String, PackageSpec> specs = new LinkedHashMap<>();
        for (String name : names) {
            PackageSpec spec = PackageSpec.parse(language, name);
            if (!allowlist.allows(spec)) {
                throw new PackageRefusedException(language.wire() + " package '" + PackageSpec.printable(name)
                        + "' is not on this server's package allowlist, so the cell did not " + what + " (ask the operator to add it)");
            }
            if (!allowlist.preinstalled(spec)) {
                specs.put(spec.requirement(), spec);
            }
        }
        return specs.isEmpty() ? PackageRequest.NONE : new PackageRequest(language, new ArrayList<>(specs.values()));
    }

    /**
     * What the runner installs for {@code request}: from the cache, or fetched now (one fetch per
     * request at a time; a second asker waits for the first and then reads the cache).
     * A {@link PackageFetchException} when the fetch fails.
     */
    public RunnerInstall prepare(PackageRequest request) {
        long start = System.nanoTime();
        Fetcher fetcher = fetchers.get(request.language());
        String key = PackageCache.sha256(request.language().wire() + "\n" + fetcher.source() + "\n"
                + String.join("\n", request.requirements().stream().sorted().toList()));
        boolean cached = true;
        var artifacts = cache.lookup(key);
        if (artifacts.isEmpty()) {
            synchronized (fetching.computeIfAbsent(key, k -> new Object())) {
                artifacts = cache.lookup(key);
                if (artifacts.isEmpty()) {
                    cached = false;
                    artifacts = java.util.Optional.of(fetch(fetcher, request, key));
                }
            }
        }
        long fetchMs = (System.nanoTime() - start) / 1_000_000;
        List<RunnerInstall.Artifact> out = artifacts.get().stream()
                .map(a -> new RunnerInstall.Artifact(PackageCache.SANDBOX_PATH + "/" + a.sha256(), a.sha256(), a.dest()))
                .toList();
        return new RunnerInstall(request.language(), request.requirements(), cached, fetchMs, out);
    }

    private List<PackageCache.CachedArtifact> fetch(Fetcher fetcher, PackageRequest request, String key) {
        Path dir = null;
        try {
            dir = cache.newStagingDir();
            List<PackageCache.CachedArtifact> stored = new ArrayList<>();
            for (Fetcher.Fetched f : fetcher.fetch(request.specs(), dir)) {
                stored.add(new PackageCache.CachedArtifact(cache.store(f.file()), f.dest()));
            }
            cache.remember(key, stored);
            log.info("fetched {} package(s) {}: {} file(s)", request.language().wire(), request.requirements(), stored.size());
            return stored;
        } catch (IOException | UncheckedIOException e) {
            throw new PackageFetchException("the package cache failed: " + e.getMessage()); // the cell ends, the session lives
        } finally {
            deleteQuietly(dir);
        }
    }

    /** How long the runner may take to install, apart from the cell's own timeout. */
    public Duration installBound() {
        return installBound;
    }

    /** How long a cell may wait for its packages at most: a fetch and an install. */
    public Duration preparationBound() {
        return fetchBound.multipliedBy(2).plus(installBound);
    }

    /** The host folder every sandbox sees read-only at {@link PackageCache#SANDBOX_PATH}. */
    public Path sandboxMount() {
        return cache.blobs();
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            log.warn("could not remove the fetch folder {}: {}", dir, e.getMessage());
        }
    }
}
