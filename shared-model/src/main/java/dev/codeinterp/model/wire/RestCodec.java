package dev.codeinterp.model.wire;

import dev.codeinterp.model.Limit;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.rest.ApiError;
import dev.codeinterp.model.rest.EventHistory;
import dev.codeinterp.model.rest.ExecuteRequest;
import dev.codeinterp.model.rest.ExecuteResponse;
import dev.codeinterp.model.rest.SessionCreated;
import dev.codeinterp.model.rest.SessionList;
import dev.codeinterp.model.rest.SessionPatch;
import dev.codeinterp.model.rest.SessionState;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The bodies of the REST tool API: execute requests and answers, sessions, history, errors. */
final class RestCodec {
    private RestCodec() {
    }

    // ---- execute --------------------------------------------------------------------------

    static ExecuteRequest decodeExecuteRequest(String json) {
        JsonObject o = JsonObject.parse(json);
        List<ExecuteRequest.InputFile> files = new ArrayList<>();
        for (JsonObject f : o.objectList("files")) {
            files.add(new ExecuteRequest.InputFile(f.string("name"), f.string("content_base64")));
        }
        return new ExecuteRequest(o.string("code"), o.optString("language", "python"), o.optNumber("timeout"), files,
                o.optString("stdin", null), o.stringList("packages"));
    }

    static String encode(ExecuteRequest request) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("code", request.code());
        m.put("language", request.language());
        if (request.timeoutSeconds() != null) {
            m.put("timeout", request.timeoutSeconds());
        }
        if (request.files() != null && !request.files().isEmpty()) {
            List<Object> files = new ArrayList<>();
            for (ExecuteRequest.InputFile f : request.files()) {
                Map<String, Object> fm = new LinkedHashMap<>();
                fm.put("name", f.name());
                fm.put("content_base64", f.contentBase64());
                files.add(fm);
            }
            m.put("files", files);
        }
        if (request.stdin() != null) {
            m.put("stdin", request.stdin());
        }
        if (request.packages() != null && !request.packages().isEmpty()) {
            m.put("packages", new ArrayList<Object>(request.packages()));
        }
        return Json.write(m);
    }

    static String encode(ExecuteResponse r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("success", r.success());
        m.put("status", r.status().wire());
        m.put("stdout", r.stdout());
        m.put("stderr", r.stderr());
        m.put("results", new ArrayList<Object>(r.results()));
        List<Object> images = new ArrayList<>();
        for (ExecuteResponse.Image image : r.images()) {
            Map<String, Object> im = new LinkedHashMap<>();
            im.put("type", image.type());
            im.put("base64", image.base64());
            images.add(im);
        }
        m.put("images", images);
        if (r.error() == null) {
            m.put("error", null);
        } else {
            Map<String, Object> em = new LinkedHashMap<>();
            em.put("name", r.error().name());
            em.put("value", r.error().value());
            em.put("traceback", r.error().traceback());
            m.put("error", em);
        }
        m.put("executionTime", r.executionTime());
        List<Object> files = new ArrayList<>();
        for (ExecuteResponse.ReturnedFile f : r.files()) {
            Map<String, Object> fm = new LinkedHashMap<>();
            fm.put("name", f.name());
            fm.put("size", f.size());
            fm.put("content_base64", f.contentBase64());
            if (f.omitted() != null) {
                fm.put("omitted", f.omitted());
            }
            files.add(fm);
        }
        m.put("files", files);
        if (r.restarted() != null) {
            m.put("restarted", r.restarted());
        }
        return Json.write(m);
    }

    static ExecuteResponse decodeExecuteResponse(String json) {
        JsonObject o = JsonObject.parse(json);
        List<Map<String, Object>> results = new ArrayList<>();
        for (JsonObject bundle : o.objectList("results")) {
            results.add(bundle.asMap());
        }
        List<ExecuteResponse.Image> images = new ArrayList<>();
        for (JsonObject image : o.objectList("images")) {
            images.add(new ExecuteResponse.Image(image.string("type"), image.string("base64")));
        }
        ExecuteResponse.ErrorInfo error = null;
        if (o.has("error")) {
            JsonObject e = o.object("error");
            error = new ExecuteResponse.ErrorInfo(e.optString("name", ""), e.optString("value", ""), e.optString("traceback", ""));
        }
        List<ExecuteResponse.ReturnedFile> files = new ArrayList<>();
        for (JsonObject f : o.objectList("files")) {
            files.add(new ExecuteResponse.ReturnedFile(f.string("name"), f.optInteger("size", 0),
                    f.optString("content_base64", null), f.optString("omitted", null)));
        }
        return new ExecuteResponse(o.optBoolean("success", false), EventCodec.status(o.string("status")), o.optString("stdout", ""),
                o.optString("stderr", ""), results, images, error, o.number("executionTime"), files,
                o.optString("restarted", null));
    }

    // ---- sessions -------------------------------------------------------------------------

    static String encode(SessionCreated created) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", created.id());
        m.put("token", created.token());
        m.put("runtime", created.runtime());
        return Json.write(m);
    }

    static SessionCreated decodeSessionCreated(String json) {
        JsonObject o = JsonObject.parse(json);
        return new SessionCreated(o.string("id"), o.string("token"), o.optString("runtime", ""));
    }

    static String encode(SessionState state) {
        return Json.write(fields(state));
    }

    private static Map<String, Object> fields(SessionState state) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", state.id());
        m.put("runtime", state.runtime());
        m.put("state", state.state());
        m.put("title", state.title());
        m.put("created", state.created());
        m.put("last_active", state.lastActive());
        return m;
    }

    static SessionState decodeSessionState(String json) {
        return sessionState(JsonObject.parse(json));
    }

    private static SessionState sessionState(JsonObject o) {
        return new SessionState(o.string("id"), o.optString("runtime", ""), o.string("state"), o.optInteger("created", 0),
                o.optInteger("last_active", 0), o.optString("title", null));
    }

    static String encode(SessionList list) {
        List<Object> sessions = new ArrayList<>();
        for (SessionState s : list.sessions()) {
            sessions.add(fields(s));
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sessions", sessions);
        m.put("next", list.next());
        return Json.write(m);
    }

    static SessionList decodeSessionList(String json) {
        JsonObject o = JsonObject.parse(json);
        List<SessionState> sessions = new ArrayList<>();
        for (JsonObject s : o.objectList("sessions")) {
            sessions.add(sessionState(s));
        }
        return new SessionList(sessions, o.optString("next", null));
    }

    static String encode(SessionPatch patch) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("title", patch.title());
        return Json.write(m);
    }

    /** A PATCH body: an object whose {@code title} is a string; anything else is a {@link dev.codeinterp.model.json.JsonException}. */
    static SessionPatch decodeSessionPatch(String json) {
        return new SessionPatch(JsonObject.parse(json).string("title"));
    }

    static String encode(EventHistory history) {
        List<Object> events = new ArrayList<>();
        for (SessionEvent e : history.events()) {
            events.add(EventCodec.sessionEventFields(e));
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("session_id", history.sessionId());
        m.put("events", events);
        m.put("last_seq", history.lastSeq());
        return Json.write(m);
    }

    static EventHistory decodeEventHistory(String json) {
        JsonObject o = JsonObject.parse(json);
        List<SessionEvent> events = new ArrayList<>();
        for (JsonObject e : o.objectList("events")) {
            events.add(EventCodec.decodeSessionEvent(e));
        }
        return new EventHistory(o.string("session_id"), events, o.optInteger("last_seq", 0));
    }

    // ---- errors ---------------------------------------------------------------------------

    static String encode(ApiError error) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("error", error.error());
        if (error.limit() != null) {
            m.put("limit", error.limit().wire());
        }
        if (error.retryAfterSeconds() != null) {
            m.put("retry_after", error.retryAfterSeconds());
        }
        return Json.write(m);
    }

    static ApiError decodeApiError(String json) {
        JsonObject o = JsonObject.parse(json);
        Long retry = o.optIntegerOrNull("retry_after");
        return new ApiError(o.optString("error", ""), Limit.fromWire(o.optString("limit", null)),
                retry == null ? null : (int) Math.min(Integer.MAX_VALUE, Math.max(0, retry)));
    }
}
