package dev.codeinterp.server.assistant;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real llama.cpp {@code llama-server} in Docker, serving the tiny deterministic model that
 * {@code test-images/llama-server/make-model.py} writes (see there for what it proves and what it
 * does not). The image is built by {@code test-images/llama-server/build-image.sh} (cached by a hash
 * of its inputs) unless {@code CODEINTERP_LLAMA_IMAGE} names one. The server requires {@link #API_KEY}.
 */
final class LlamaServer implements AutoCloseable {
    static final String API_KEY = "sk-test-llama-5e1f0c9a7d";
    /** What the model's tool call runs, and its answers (make-model.py). */
    static final String TOOL_CODE = "print(6 * 7)";
    static final String ANSWER_SEEN = "The code printed 42, so the answer is 42.";
    static final String ANSWER_OTHER = "The code did not print what I expected.";

    private static final Path RECIPE = Path.of("..", "test-images", "llama-server").toAbsolutePath().normalize();

    private final Path modelDir;
    private final String containerId;
    private final String baseUrl;

    private LlamaServer(Path modelDir, String containerId, String baseUrl) {
        this.modelDir = modelDir;
        this.containerId = containerId;
        this.baseUrl = baseUrl;
    }

    static LlamaServer start() throws IOException, InterruptedException {
        String image = System.getenv("CODEINTERP_LLAMA_IMAGE");
        if (image == null || image.isBlank()) {
            image = run(Duration.ofMinutes(10), "bash", RECIPE.resolve("build-image.sh").toString()).trim();
        }
        Path modelDir = Files.createTempDirectory("llama-model");
        modelDir.toFile().setReadable(true, false);
        modelDir.toFile().setExecutable(true, false);
        run(Duration.ofMinutes(2), "docker", "run", "--rm", "--network", "none",
                "-v", RECIPE.resolve("make-model.py") + ":/make-model.py:ro", "-v", modelDir + ":/out",
                image, "python3", "/make-model.py", "/out/model.gguf");
        String id = run(Duration.ofMinutes(1), "docker", "run", "-d", "--rm", "--label", "codeinterp.test=llama-server",
                "-p", "127.0.0.1::8080", "-v", modelDir + ":/models:ro", image,
                "llama-server", "-m", "/models/model.gguf", "--jinja", "--host", "0.0.0.0", "--port", "8080",
                "-c", "8192", "--api-key", API_KEY).trim();
        String port = run(Duration.ofSeconds(30), "docker", "port", id, "8080/tcp").lines().findFirst().orElseThrow();
        LlamaServer server = new LlamaServer(modelDir, id, "http://127.0.0.1:" + port.substring(port.lastIndexOf(':') + 1));
        try {
            server.awaitHealthy();
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** The OpenAI-compatible base URL, ending in {@code /v1}. */
    String baseUrl() {
        return baseUrl + "/v1";
    }

    private void awaitHealthy() throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/health")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(200);
        }
        throw new IOException("llama-server did not become healthy: " + logs());
    }

    String logs() {
        try {
            return run(Duration.ofSeconds(30), "docker", "logs", "--tail", "40", containerId);
        } catch (IOException | InterruptedException e) {
            return "(no logs: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        try {
            run(Duration.ofSeconds(30), "docker", "rm", "-f", containerId);
        } catch (IOException | InterruptedException e) {
            // best effort: the container runs with --rm and a test label
        }
        try (var files = Files.walk(modelDir)) {
            files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp dir
        }
    }

    private static String run(Duration timeout, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new IOException("timed out: " + Arrays.toString(command));
        }
        if (p.exitValue() != 0) {
            throw new IOException("exit " + p.exitValue() + ": " + String.join(" ", new ArrayList<>(List.of(command))));
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
