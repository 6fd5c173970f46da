package dev.codeinterp.server.sandbox;

import com.github.dockerjava.api.model.VersionComponent;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The version of the OCI runtime sessions get, for {@code /healthz}: which gVisor a server runs is
 * what decides whether {@code ls} works in its sandboxes (issue 22), so it is shown, not assumed.
 * <p>
 * Docker names runc's version among its components, but of any other runtime only the path it
 * executes. So runsc is asked itself, {@code <path> --version}: it needs no privileges and starts no
 * sandbox. That is done only when the engine is on this host (a Unix socket: its path names our file
 * system's binary), and once per binary (path, size, modification time), so a runsc replaced under a
 * running server is seen at the next probe while an unchanged one is never run again. Unknown is null.
 */
final class RuntimeVersion {
    private static final long TIMEOUT_MILLIS = 5_000;
    private static final int MAX_LENGTH = 100;

    private final boolean engineOnThisHost;
    private Binary asked;
    private String answer;

    private record Binary(Path path, long size, FileTime modified) {
    }

    RuntimeVersion(boolean engineOnThisHost) {
        this.engineOnThisHost = engineOnThisHost;
    }

    /**
     * {@code runtime}'s version: from the engine's components when it names it (runc), else from the
     * binary at the path the engine's {@code Runtimes} gives it; null when neither is known.
     */
    synchronized String of(String runtime, List<VersionComponent> components, Map<?, ?> runtimes) {
        if (components != null) {
            for (VersionComponent c : components) {
                if (runtime.equals(c.getName()) && c.getVersion() != null && !c.getVersion().isBlank()) {
                    return c.getVersion();
                }
            }
        }
        if (!engineOnThisHost || runtimes == null || !(runtimes.get(runtime) instanceof Map<?, ?> entry)
                || !(entry.get("path") instanceof String path)) {
            return null;
        }
        Path binary = resolve(path);
        if (binary == null) {
            return null;
        }
        Binary seen;
        try {
            BasicFileAttributes a = Files.readAttributes(binary, BasicFileAttributes.class);
            seen = new Binary(binary, a.size(), a.lastModifiedTime());
        } catch (IOException e) {
            return null;
        }
        if (!seen.equals(asked)) {
            answer = ask(binary);
            asked = seen;
        }
        return answer;
    }

    /** An absolute path as it is; a bare name through PATH, as dockerd looks it up. */
    private static Path resolve(String path) {
        Path p = Path.of(path);
        if (p.isAbsolute()) {
            return Files.isRegularFile(p) ? p : null;
        }
        String searchPath = System.getenv("PATH");
        if (searchPath == null) {
            return null;
        }
        for (String dir : searchPath.split(File.pathSeparator)) {
            Path candidate = Path.of(dir).resolve(path);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Output goes to a file, so a binary that hangs with its stdout open costs the timeout, no more. */
    private static String ask(Path binary) {
        Process process = null;
        Path out = null;
        try {
            out = Files.createTempFile("runtime-version", ".txt");
            process = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(out.toFile()).start();
            if (!process.waitFor(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS) || process.exitValue() != 0) {
                return null;
            }
            try (InputStream in = Files.newInputStream(out)) {
                return fromOutput(new String(in.readNBytes(4096), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            if (process != null) {
                process.destroyForcibly();
            }
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a temporary file of a few bytes
                }
            }
        }
    }

    /** {@code runsc version 0.0~20240729.0} (then {@code spec: …}) → {@code 0.0~20240729.0}. */
    static String fromOutput(String output) {
        String first = output.strip().lines().findFirst().orElse("").strip();
        int at = first.indexOf("version ");
        String version = (at >= 0 ? first.substring(at + "version ".length()) : first).strip();
        if (version.isEmpty()) {
            return null;
        }
        return version.length() > MAX_LENGTH ? version.substring(0, MAX_LENGTH) : version;
    }
}
