package dev.codeinterp.server.packages;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs pip or npm for a fetch: in its own folder, with an environment of its own (nothing of the
 * server's but PATH and the proxy variables: no keys, no user config), bounded in time; its output
 * is kept for the error message. No shell is involved: arguments go to the tool as they are.
 */
final class FetchTool {
    private static final int OUTPUT_TAIL = 2000;
    private static final List<String> PROXY_VARIABLES = List.of("HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy");

    private FetchTool() {
    }

    /** Runs {@code command}; returns its stdout, or throws a {@link PackageFetchException} saying what went wrong. */
    static String run(List<String> command, Path dir, Map<String, String> env, Duration bound, String what) {
        Path out = dir.resolve(".stdout");
        Path err = dir.resolve(".stderr");
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin"));
        builder.environment().put("HOME", dir.toString());
        builder.environment().put("LANG", "C.UTF-8");
        for (String proxy : PROXY_VARIABLES) { // how this host reaches the network, if it needs telling
            String value = System.getenv(proxy);
            if (value != null) {
                builder.environment().put(proxy, value);
            }
        }
        builder.environment().putAll(env);
        try {
            Process process = builder.start();
            if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new PackageFetchException(what + " took longer than " + bound.toSeconds() + " s and was stopped");
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new PackageFetchException(what + " failed: " + tail(Files.readString(err, StandardCharsets.UTF_8), stdout));
            }
            return stdout;
        } catch (IOException e) {
            throw new PackageFetchException(what + " could not run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PackageFetchException(what + " was interrupted");
        }
    }

    private static String tail(String stderr, String stdout) {
        String text = (stderr.isBlank() ? stdout : stderr).strip();
        return text.length() > OUTPUT_TAIL ? "…" + text.substring(text.length() - OUTPUT_TAIL) : text;
    }
}
