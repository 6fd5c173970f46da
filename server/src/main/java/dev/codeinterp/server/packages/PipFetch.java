package dev.codeinterp.server.packages;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Python's fetch: {@code pip download} on the host resolves the requirements against the
 * configured simple index (PEP 503/691) and downloads wheels only ({@code --only-binary=:all:}:
 * an sdist would run its build code, and nothing fetched may run here). pip checks each file
 * against the hash the index publishes for it. The wheels are chosen for the sandbox's interpreter,
 * not the host's: CPython 3.11 on glibc 2.36 (the image is Debian bookworm), this host's CPU.
 */
final class PipFetch implements Fetcher {
    private static final String PYTHON_VERSION = "3.11";
    private static final String ABI = "cp311";
    private static final int GLIBC_MINOR = 36;

    private final String indexUrl;
    private final Duration bound;
    private final IndexFailures failures;

    PipFetch(String indexUrl, Duration bound) {
        this.indexUrl = indexUrl;
        this.bound = bound;
        this.failures = IndexFailures.pip(indexUrl);
    }

    @Override
    public String source() {
        return indexUrl;
    }

    @Override
    public List<Fetched> fetch(List<PackageSpec> specs, Path dir) {
        Path out = dir.resolve("wheels");
        // one try, each request bounded (an index that is down or silent fails the fetch at once); -vv: pip says
        // why it could not read an index page only at debug level, and that line is what names the problem
        List<String> command = new ArrayList<>(List.of("python3", "-m", "pip", "download", "-vv", "--isolated", "--no-input",
                "--disable-pip-version-check", "--no-cache-dir", "--progress-bar", "off", "--only-binary=:all:",
                "--retries", "0", "--timeout", String.valueOf(FetchTool.requestTimeout(bound).toSeconds()),
                "--index-url", indexUrl, "--dest", out.toString(),
                "--python-version", PYTHON_VERSION, "--implementation", "cp", "--abi", ABI));
        trustedHost().ifPresent(host -> {
            command.add("--trusted-host");
            command.add(host);
        });
        for (String platform : platforms()) {
            command.add("--platform");
            command.add(platform);
        }
        command.add("--");
        specs.forEach(s -> command.add(s.requirement()));
        FetchTool.run(command, dir, Map.of(), bound, "pip download", failures);
        try (Stream<Path> files = Files.list(out)) {
            List<Fetched> wheels = new ArrayList<>();
            for (Path f : files.sorted().toList()) {
                if (!f.getFileName().toString().endsWith(".whl") || !Files.isRegularFile(f)) {
                    throw new PackageFetchException("pip download gave something that is not a wheel: " + f.getFileName());
                }
                wheels.add(new Fetched(f, null));
            }
            return wheels;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The index's host when the operator gave an http:// URL: pip ignores such an index unless told to
     * trust its host (only loopback is trusted by default), which would leave the setting silently
     * unused. The files' hashes, which the index publishes, are still checked.
     */
    private java.util.Optional<String> trustedHost() {
        java.net.URI uri = java.net.URI.create(indexUrl);
        return "http".equalsIgnoreCase(uri.getScheme()) && uri.getHost() != null
                ? java.util.Optional.of(uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort())
                : java.util.Optional.empty();
    }

    /** Every manylinux tag glibc 2.36 runs (pip does not widen {@code manylinux_2_x} itself), plus plain linux. */
    private static List<String> platforms() {
        String arch = switch (System.getProperty("os.arch")) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> System.getProperty("os.arch");
        };
        List<String> platforms = new ArrayList<>();
        for (int minor = GLIBC_MINOR; minor >= 17; minor--) {
            platforms.add("manylinux_2_" + minor + "_" + arch);
        }
        platforms.add("manylinux2014_" + arch); // pip adds manylinux2010 and manylinux1 from this one
        platforms.add("linux_" + arch);
        return platforms;
    }
}
