package dev.codeinterp.server.assistant;

import dev.codeinterp.model.assistant.AssistantException;
import dev.codeinterp.model.assistant.ChatMessage;
import dev.codeinterp.model.assistant.Completion;
import dev.codeinterp.model.assistant.CompletionStream;
import dev.codeinterp.model.assistant.EndpointRefusal;
import dev.codeinterp.model.assistant.OpenAiWire;
import dev.codeinterp.server.config.AssistantSettings;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Streams one chat completion from an OpenAI-compatible endpoint with the JDK's HttpClient. Text
 * reaches {@code onText} piece by piece as it arrives; tool calls are assembled across chunks.
 * Every failure becomes an {@link AssistantException} with a message fit for the person (never the
 * API key); a {@link Cancellation} aborts the request or the stream and raises {@link CancellationException}.
 */
final class ChatClient {
    private static final int MAX_ERROR_BODY_BYTES = 64 << 10;

    private final AssistantSettings settings;
    private final HttpClient http;
    private final ScheduledExecutorService watchdog;
    private final URI endpoint;

    ChatClient(AssistantSettings settings, HttpClient http, ScheduledExecutorService watchdog) {
        this.settings = settings;
        this.http = http;
        this.watchdog = watchdog;
        this.endpoint = URI.create(settings.baseUrl() + "/chat/completions");
    }

    Completion complete(List<ChatMessage> messages, List<Object> tools, Consumer<String> onText, Cancellation cancel) {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .timeout(settings.timeout())
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(
                        OpenAiWire.request(settings.model(), messages, tools, settings.maxTokens()), StandardCharsets.UTF_8));
        if (settings.apiKey() != null) {
            request.header("Authorization", "Bearer " + settings.apiKey());
        }
        HttpRequest built = request.build();
        HttpResponse<InputStream> response = null;
        for (int tries = 1; response == null; tries++) {
            try {
                response = send(built, cancel);
            } catch (ExecutionException e) {
                if (cancel.cancelled()) {
                    throw new CancellationException("stopped");
                }
                if (tries == 2 || !closedUnanswered(e.getCause())) { // once more only: a dropped kept-alive connection
                    throw failure(e.getCause());
                }
            }
        }
        try (InputStream body = response.body()) {
            if (response.statusCode() != 200) {
                throw refused(response.statusCode(), response.headers().firstValue("Retry-After").orElse(null), body);
            }
            return stream(body, onText, cancel);
        } catch (IOException e) {
            throw new AssistantException("The model endpoint's answer could not be read (" + e.getMessage() + ").");
        }
    }

    private Completion stream(InputStream body, Consumer<String> onText, Cancellation cancel) throws IOException {
        CompletionStream answer = new CompletionStream(onText::accept);
        boolean[] timedOut = {false};
        long[] lastData = {System.nanoTime()};
        Runnable close = () -> {
            try {
                body.close();
            } catch (IOException ignored) {
                // closing is how we stop reading
            }
        };
        Runnable unregister = cancel.onCancel(close);
        long limit = settings.timeout().toNanos();
        ScheduledFuture<?> stall = watchdog.scheduleAtFixedRate(() -> {
            if (System.nanoTime() - lastData[0] > limit) {
                timedOut[0] = true;
                close.run();
            }
        }, 250, 250, TimeUnit.MILLISECONDS);
        try {
            SseReader.read(new BufferedInputStream(body), data -> {
                lastData[0] = System.nanoTime();
                return answer.accept(data);
            });
        } catch (IOException e) {
            if (cancel.cancelled()) {
                throw new CancellationException("stopped");
            }
            if (timedOut[0]) {
                throw stalled();
            }
            throw new AssistantException("The connection to the model endpoint broke mid-answer (" + e.getMessage() + ").");
        } finally {
            stall.cancel(false);
            unregister.run();
        }
        if (cancel.cancelled()) {
            throw new CancellationException("stopped");
        }
        if (timedOut[0]) {
            throw stalled();
        }
        return answer.complete();
    }

    private AssistantException stalled() {
        return new AssistantException("The model endpoint sent nothing for " + settings.timeout().toSeconds()
                + " s; the request was given up (CODEINTERP_LLM_TIMEOUT).");
    }

    private HttpResponse<InputStream> send(HttpRequest request, Cancellation cancel) throws ExecutionException {
        CompletableFuture<HttpResponse<InputStream>> pending = http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
        Runnable unregister = cancel.onCancel(() -> pending.cancel(true));
        try {
            return pending.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted");
        } finally {
            unregister.run();
        }
    }

    /**
     * The connection closed before a single byte of an answer: most likely the endpoint had dropped
     * a connection the client kept alive for reuse, and the request never reached it. The JDK's
     * client sends only idempotent requests again by itself, and this is a POST.
     */
    static boolean closedUnanswered(Throwable cause) {
        return cause instanceof IOException && !(cause instanceof HttpTimeoutException) && !(cause instanceof ConnectException)
                && String.valueOf(cause.getMessage()).contains("header parser received no bytes");
    }

    private AssistantException failure(Throwable cause) {
        if (cause instanceof HttpTimeoutException) {
            return new AssistantException("The model endpoint did not answer within " + settings.timeout().toSeconds()
                    + " s (CODEINTERP_LLM_TIMEOUT).");
        }
        if (cause instanceof ConnectException) {
            return new AssistantException("Could not connect to the model endpoint at " + endpoint.getHost()
                    + (endpoint.getPort() > 0 ? ":" + endpoint.getPort() : "") + ". Is it running?");
        }
        return new AssistantException("The request to the model endpoint failed ("
                + OpenAiWire.clean(cause == null ? "unknown error" : String.valueOf(cause.getMessage())) + ").");
    }

    private static AssistantException refused(int status, String retryAfter, InputStream body) throws IOException {
        return EndpointRefusal.of(status, retryAfter, new String(body.readNBytes(MAX_ERROR_BODY_BYTES), StandardCharsets.UTF_8),
                "CODEINTERP_LLM_BASE_URL and CODEINTERP_LLM_MODEL");
    }
}
