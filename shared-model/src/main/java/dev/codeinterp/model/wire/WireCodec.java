package dev.codeinterp.model.wire;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.embed.EmbedMessage;
import dev.codeinterp.model.health.Health;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.local.LocalRuntimeConfig;
import dev.codeinterp.model.local.RuntimeFrameMessage;
import dev.codeinterp.model.local.WheelIndex;
import dev.codeinterp.model.rest.ApiError;
import dev.codeinterp.model.rest.EventHistory;
import dev.codeinterp.model.rest.ExecuteRequest;
import dev.codeinterp.model.rest.ExecuteResponse;
import dev.codeinterp.model.rest.FileEntry;
import dev.codeinterp.model.rest.FileList;
import dev.codeinterp.model.rest.SessionCreated;
import dev.codeinterp.model.rest.SessionList;
import dev.codeinterp.model.rest.SessionPatch;
import dev.codeinterp.model.rest.SessionState;
import dev.codeinterp.model.rest.UploadedFiles;
import dev.codeinterp.model.runner.CellInput;
import dev.codeinterp.model.runner.RunnerInstall;
import dev.codeinterp.model.runner.RunnerMessage;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;

/**
 * The one place where the vocabulary meets JSON: every WebSocket frame, runner line, REST body,
 * stored event, health answer, local runtime page config, embed widget message and runtime frame
 * message is encoded and decoded here, so no one else builds or reads JSON by key. Keys are
 * snake_case, as in Jupyter (the execute answer's {@code executionTime}, local mode's page config
 * and the embed and runtime-frame messages keep the names their JavaScript peers expect). Decoders
 * validate and raise {@link JsonException} with a message fit to show the sender. Each protocol has
 * its own package-private codec class in this package; this class is their one public entry. (The
 * embed widget's file manifest, a document a site owner writes, reads itself:
 * {@link dev.codeinterp.model.embed.EmbedManifest#decode}.)
 */
public final class WireCodec {
    private WireCodec() {
    }

    // ---- events and WebSocket frames ------------------------------------------------------

    /** An event as a session stores it and a client's history holds it. */
    public static String encode(SessionEvent event) {
        return Json.write(EventCodec.sessionEventFields(event));
    }

    public static SessionEvent decodeSessionEvent(String json) {
        return EventCodec.decodeSessionEvent(JsonObject.parse(json));
    }

    public static String encode(ServerMessage message) {
        return FrameCodec.encode(message);
    }

    public static ServerMessage decodeServerMessage(String json) {
        return FrameCodec.decodeServerMessage(json);
    }

    public static String encode(ClientMessage message) {
        return FrameCodec.encode(message);
    }

    public static ClientMessage decodeClientMessage(String json) {
        return FrameCodec.decodeClientMessage(json);
    }

    // ---- runner lines (docs/runner-protocol.md) -------------------------------------------

    /** Reads one line of the runner's stdout. */
    public static RunnerMessage decodeRunnerLine(String line) {
        return RunnerCodec.decodeRunnerLine(line);
    }

    public static String encodeRunnerExecute(String executionId, String code, Language language, long maxOutputBytes) {
        return RunnerCodec.encodeRunnerExecute(executionId, code, language, maxOutputBytes, CellInput.NONE, null);
    }

    /** As above, saying how the cell's {@code input()} reads (docs/runner-protocol.md, "Input"). */
    public static String encodeRunnerExecute(String executionId, String code, Language language, long maxOutputBytes,
                                             CellInput input) {
        return RunnerCodec.encodeRunnerExecute(executionId, code, language, maxOutputBytes, input, null);
    }

    /** An execute line whose packages the runner installs (offline, from the read-only cache) before the code runs. */
    public static String encodeRunnerExecute(String executionId, String code, Language language, long maxOutputBytes,
                                             RunnerInstall install) {
        return RunnerCodec.encodeRunnerExecute(executionId, code, language, maxOutputBytes, CellInput.NONE, install);
    }

    /** Both: {@code input} for the cell's {@code input()}, {@code install} (or null) its packages. */
    public static String encodeRunnerExecute(String executionId, String code, Language language, long maxOutputBytes,
                                             CellInput input, RunnerInstall install) {
        return RunnerCodec.encodeRunnerExecute(executionId, code, language, maxOutputBytes, input, install);
    }

    /** The person's answer to the running cell's {@code input_request}. */
    public static String encodeRunnerInputReply(String value) {
        return RunnerCodec.encodeRunnerInputReply(value);
    }

    /** The answer to a cell's {@code install_request}: what to install, from the read-only cache. */
    public static String encodeRunnerInstall(String executionId, RunnerInstall install) {
        return RunnerCodec.encodeRunnerInstall(executionId, install);
    }

    /** The answer to a cell's {@code install_request} when nothing is installed: {@code ename} is the error the cell raises. */
    public static String encodeRunnerInstallRefused(String executionId, String ename, String message) {
        return RunnerCodec.encodeRunnerInstallRefused(executionId, ename, message);
    }

    /** The server stored the runner's lines numbered below {@code lines}: the runner may forget them. */
    public static String encodeRunnerAck(long lines) {
        return RunnerCodec.encodeRunnerLineNumber("ack", "ack", lines);
    }

    /** A server (re)attached and stored the runner's lines numbered below {@code lines}: the runner sends the rest again. */
    public static String encodeRunnerReplay(long lines) {
        return RunnerCodec.encodeRunnerLineNumber("replay", "from", lines);
    }

    /** A command without arguments, such as {@code interrupt}. */
    public static String encodeRunnerCommand(String type) {
        return RunnerCodec.encodeRunnerCommand(type);
    }

    // ---- REST: execute, sessions, history, errors -----------------------------------------

    public static ExecuteRequest decodeExecuteRequest(String json) {
        return RestCodec.decodeExecuteRequest(json);
    }

    public static String encode(ExecuteRequest request) {
        return RestCodec.encode(request);
    }

    public static String encode(ExecuteResponse response) {
        return RestCodec.encode(response);
    }

    public static ExecuteResponse decodeExecuteResponse(String json) {
        return RestCodec.decodeExecuteResponse(json);
    }

    public static String encode(SessionCreated created) {
        return RestCodec.encode(created);
    }

    public static SessionCreated decodeSessionCreated(String json) {
        return RestCodec.decodeSessionCreated(json);
    }

    public static String encode(SessionState state) {
        return RestCodec.encode(state);
    }

    public static SessionState decodeSessionState(String json) {
        return RestCodec.decodeSessionState(json);
    }

    public static String encode(SessionList list) {
        return RestCodec.encode(list);
    }

    public static SessionList decodeSessionList(String json) {
        return RestCodec.decodeSessionList(json);
    }

    public static String encode(SessionPatch patch) {
        return RestCodec.encode(patch);
    }

    /** {@code PATCH /api/v1/sessions/{id}}'s body; a missing or non-string title is a JsonException. */
    public static SessionPatch decodeSessionPatch(String json) {
        return RestCodec.decodeSessionPatch(json);
    }

    public static String encode(EventHistory history) {
        return RestCodec.encode(history);
    }

    public static EventHistory decodeEventHistory(String json) {
        return RestCodec.decodeEventHistory(json);
    }

    /** {@code {"error": message}}: the body of every 4xx/5xx answer. */
    public static String encodeError(String message) {
        return RestCodec.encode(ApiError.of(message));
    }

    /** {@code {"error", "limit"?, "retry_after"?}}: an error body, with the limit that refused the request if one did. */
    public static String encode(ApiError error) {
        return RestCodec.encode(error);
    }

    public static ApiError decodeApiError(String json) {
        return RestCodec.decodeApiError(json);
    }

    // ---- REST: workspace files ------------------------------------------------------------

    public static String encode(FileEntry file) {
        return WorkspaceCodec.encode(file);
    }

    public static FileEntry decodeFileEntry(String json) {
        return WorkspaceCodec.decodeFileEntry(json);
    }

    public static String encode(FileList list) {
        return WorkspaceCodec.encode(list);
    }

    public static FileList decodeFileList(String json) {
        return WorkspaceCodec.decodeFileList(json);
    }

    public static String encode(UploadedFiles uploaded) {
        return WorkspaceCodec.encode(uploaded);
    }

    public static UploadedFiles decodeUploadedFiles(String json) {
        return WorkspaceCodec.decodeUploadedFiles(json);
    }

    // ---- health and local mode ------------------------------------------------------------

    public static String encode(Health health) {
        return HealthCodec.encode(health);
    }

    public static String encode(Health.Room room) {
        return HealthCodec.encode(room);
    }

    public static Health.Room decodeRoom(String json) {
        return HealthCodec.decodeRoom(json);
    }

    public static Health decodeHealth(String json) {
        return HealthCodec.decode(json);
    }

    /** The runtime page's config; the caller escapes {@code <} when it inlines it in HTML. */
    public static String encode(LocalRuntimeConfig config) {
        return LocalRuntimeCodec.encode(config);
    }

    public static String encode(WheelIndex index) {
        return LocalRuntimeCodec.encode(index);
    }

    // ---- embed widget and its host page (docs/embed.md) -----------------------------------

    public static String encode(EmbedMessage message) {
        return EmbedCodec.encode(message);
    }

    /** A request from the host page; a message of the widget's, or anything malformed, is a {@link JsonException}. */
    public static EmbedMessage.ToWidget decodeEmbedRequest(String json) {
        return EmbedCodec.decodeToWidget(json);
    }

    // ---- local mode's runtime frame (docs/local-runtime-protocol.md) ----------------------

    public static String encode(RuntimeFrameMessage message) {
        return RuntimeFrameCodec.encode(message);
    }

    /** A message the frame sent; one meant for the frame, or anything malformed, is a {@link JsonException}. */
    public static RuntimeFrameMessage.FromFrame decodeFromRuntimeFrame(String json) {
        return RuntimeFrameCodec.decodeFromFrame(json);
    }
}
