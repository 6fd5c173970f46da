package dev.codeinterp.server.sandbox;

import com.github.dockerjava.transport.DockerHttpClient;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Docker's checkpoint API, which docker-java does not cover, as raw engine requests: take a
 * checkpoint of a running container into a directory of ours, and start a created container from
 * a checkpoint placed in its own checkpoints directory (Docker 20.10 takes a checkpoint directory
 * when creating one, but refuses it on start). Needs the engine's experimental mode.
 */
final class EngineCheckpoints {
    /** Docker 20.10's API; the checkpoint routes are the same since 1.25. */
    private static final String API = "/v1.41";

    private final DockerHttpClient http;

    EngineCheckpoints(DockerHttpClient http) {
        this.http = http;
    }

    /**
     * Checkpoints {@code containerId} as {@code name} into {@code parent/name}; with {@code exit}
     * the container stops once its state is written, otherwise it goes on running.
     */
    void create(String containerId, String name, Path parent, boolean exit) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("CheckpointID", name);
        body.put("CheckpointDir", parent.toString());
        body.put("Exit", exit);
        call(DockerHttpClient.Request.Method.POST, "/containers/" + containerId + "/checkpoints", Json.write(body), "checkpoint");
    }

    /** Starts the created {@code containerId} from its checkpoint {@code name} (in the container's own checkpoints directory). */
    void startFrom(String containerId, String name) {
        call(DockerHttpClient.Request.Method.POST, "/containers/" + containerId + "/start?checkpoint="
                + URLEncoder.encode(name, StandardCharsets.UTF_8), null, "restore");
    }

    private void call(DockerHttpClient.Request.Method method, String path, String json, String what) {
        DockerHttpClient.Request.Builder request = DockerHttpClient.Request.builder().method(method).path(API + path);
        if (json != null) {
            request.putHeader("Content-Type", "application/json").bodyBytes(json.getBytes(StandardCharsets.UTF_8));
        }
        try (DockerHttpClient.Response response = http.execute(request.build())) {
            int status = response.getStatusCode();
            if (status / 100 != 2) {
                String why = "the engine refused the " + what + " (" + status + "): " + message(response.getBody());
                // a refused restore is the checkpoint's fault unless the engine itself is in trouble (5xx other than 500)
                throw "restore".equals(what) && (status == 500 || status / 100 == 4)
                        ? new CheckpointRefusedException(why, null) : new SandboxException(why);
            }
        } catch (SandboxException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SandboxException("the " + what + " failed: " + e.getMessage(), e);
        }
    }

    /** The engine's {@code {"message": …}}, or its raw text, shortened. */
    private static String message(InputStream body) {
        String text;
        try (body) {
            text = body == null ? "" : new String(body.readNBytes(4096), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable answer)";
        }
        try {
            return JsonObject.parse(text).optString("message", text).strip();
        } catch (JsonException | ClassCastException e) {
            return text.strip();
        }
    }
}
