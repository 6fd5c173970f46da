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
 * is read for the error message, which a {@link Diagnosis} makes one line. No shell is involved: arguments go to the tool as they are.
 */
final class FetchTool {
    private static final List<String> PROXY_VARIABLES = List.of("HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy");

    private FetchTool() {
    }

    /**
     * How long one request of a fetch may wait for an answer: 15 s (pip's own default), less under a
     * short fetch bound, so that a silent index fails the fetch within its bound, with the index named.
     */
    static Duration requestTimeout(Duration bound) {
        return Duration.ofSeconds(Math.max(1, Math.min(15, bound.toSeconds() / 2)));
    }

    /** What a tool's failure means, in one line (see {@link IndexFailures}). */
    interface Diagnosis {
        /** {@code tool} exited with an error, having written {@code stdout} and {@code stderr}. */
        String failed(String tool, String stdout, String stderr);

        /** {@code tool} was still running after {@code bound} and was stopped. */
        String timedOut(String tool, Duration bound);
    }

    /** Runs {@code command}; returns its stdout, or throws a {@link PackageFetchException} with what {@code diagnosis} makes of it. */
    static String run(List<String> command, Path dir, Map<String, String> env, Duration bound, String what, Diagnosis diagnosis) {
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
                throw new PackageFetchException(diagnosis.timedOut(what, bound));
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new PackageFetchException(diagnosis.failed(what, stdout, Files.readString(err, StandardCharsets.UTF_8)));
            }
            return stdout;
        } catch (IOException e) {
            throw new PackageFetchException(what + " could not run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PackageFetchException(what + " was interrupted");
        }
    }
}
