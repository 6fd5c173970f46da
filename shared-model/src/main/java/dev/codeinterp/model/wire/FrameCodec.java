package dev.codeinterp.model.wire;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.Limit;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.runner.CellInput;
import dev.codeinterp.model.runner.RunnerInstall;
import dev.codeinterp.model.runner.RunnerMessage;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ClientMessageType;
import dev.codeinterp.model.session.ServerMessage;

import java.util.LinkedHashMap;
import java.util.Map;

/** The frames of a session's WebSocket (both ways) and the lines between server and runner. */
final class FrameCodec {
    private FrameCodec() {
    }

    // ---- WebSocket frames -----------------------------------------------------------------

    static String encode(ServerMessage message) {
        Map<String, Object> m;
        if (message instanceof ServerMessage.EventFrame) {
            m = EventCodec.sessionEventFields(((ServerMessage.EventFrame) message).event());
            m.put("frame", "event");
        } else if (message instanceof ServerMessage.Welcome) {
            ServerMessage.Welcome w = (ServerMessage.Welcome) message;
            m = new LinkedHashMap<>();
            m.put("frame", "welcome");
            m.put("session_id", w.sessionId());
            m.put("runtime", w.runtime());
            m.put("last_seq", w.lastSeq());
        } else {
            ServerMessage.ProtocolError p = (ServerMessage.ProtocolError) message;
            m = new LinkedHashMap<>();
            m.put("frame", "protocol_error");
            m.put("message", p.message());
            if (p.limit() != null) {
                m.put("limit", p.limit().wire());
            }
        }
        return Json.write(m);
    }

    static ServerMessage decodeServerMessage(String json) {
        JsonObject o = JsonObject.parse(json);
        String frame = o.string("frame");
        switch (frame) {
            case "event":
                return new ServerMessage.EventFrame(EventCodec.decodeSessionEvent(o));
            case "welcome":
                return new ServerMessage.Welcome(o.string("session_id"), o.optString("runtime", ""), o.optInteger("last_seq", 0));
            case "protocol_error":
                return new ServerMessage.ProtocolError(o.optString("message", ""), Limit.fromWire(o.optString("limit", null)));
            default:
                throw new JsonException("unknown frame '" + frame + "'");
        }
    }

    static String encode(ClientMessage message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", message.type().wire());
        switch (message.type()) {
            case HELLO: {
                ClientMessage.Hello h = (ClientMessage.Hello) message;
                m.put("token", h.token());
                m.put("last_seq", h.lastSeq());
                break;
            }
            case EXECUTE: {
                ClientMessage.Execute e = (ClientMessage.Execute) message;
                m.put("code", e.code());
                if (e.language() != null) {
                    m.put("language", e.language());
                }
                if (e.timeoutSeconds() != null) {
                    m.put("timeout", e.timeoutSeconds());
                }
                if (!e.packages().isEmpty()) {
                    m.put("packages", new java.util.ArrayList<Object>(e.packages()));
                }
                break;
            }
            case PROMPT:
                m.put("text", ((ClientMessage.Prompt) message).text());
                break;
            case INPUT_REPLY:
                m.put("value", ((ClientMessage.InputReply) message).value());
                break;
            default:
                break;
        }
        return Json.write(m);
    }

    static ClientMessage decodeClientMessage(String json) {
        JsonObject o = JsonObject.parse(json);
        String typeName = o.string("type");
        ClientMessageType type = ClientMessageType.fromWire(typeName);
        if (type == null) {
            throw new JsonException("unknown message type '" + typeName + "'");
        }
        switch (type) {
            case HELLO:
                return new ClientMessage.Hello(o.string("token"), o.optInteger("last_seq", 0));
            case EXECUTE:
                return new ClientMessage.Execute(o.string("code"), o.optNumber("timeout"), o.optString("language", null),
                        o.stringList("packages"));
            case INTERRUPT:
                return new ClientMessage.Interrupt();
            case RESTART:
                return new ClientMessage.Restart();
            case PROMPT:
                return new ClientMessage.Prompt(o.string("text"));
            case STOP:
                return new ClientMessage.Stop();
            case INPUT_REPLY:
                return new ClientMessage.InputReply(o.string("value"));
            default:
                throw new JsonException("unhandled message type '" + typeName + "'");
        }
    }

    // ---- runner lines (docs/runner-protocol.md) -------------------------------------------

    static RunnerMessage decodeRunnerLine(String line) {
        JsonObject o = JsonObject.parse(line);
        String type = o.string("type");
        if ("ready".equals(type)) {
            return new RunnerMessage.Ready(o.optString("python", "?"), o.optInteger("pid", 0));
        }
        if ("protocol_error".equals(type)) {
            return new RunnerMessage.ProtocolError(o.optString("message", ""));
        }
        if ("install_request".equals(type)) {
            Language language;
            try {
                language = Language.fromWire(o.optString("language", "python"));
            } catch (IllegalArgumentException e) {
                throw new JsonException(e.getMessage());
            }
            return new RunnerMessage.InstallRequest(o.string("id"), language, o.stringList("packages"));
        }
        return new RunnerMessage.CellEvent(o.string("id"), EventCodec.decodeEvent(o));
    }

    static String encodeRunnerExecute(String executionId, String code, Language language, long maxOutputBytes,
                                      CellInput input, RunnerInstall install) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "execute");
        m.put("id", executionId);
        m.put("code", code);
        m.put("language", language.wire());
        m.put("max_output_bytes", maxOutputBytes);
        if (input.stdin() != null) {
            m.put("stdin", input.stdin());
        }
        if (input.interactive()) {
            m.put("interactive", true);
        }
        if (install != null) {
            m.put("install", installFields(install));
        }
        return Json.write(m);
    }

    static String encodeRunnerInputReply(String value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "input_reply");
        m.put("value", value);
        return Json.write(m);
    }

    static String encodeRunnerInstall(String executionId, RunnerInstall install) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "install");
        m.put("id", executionId);
        m.putAll(installFields(install));
        return Json.write(m);
    }

    static String encodeRunnerInstallRefused(String executionId, String ename, String message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "install_refused");
        m.put("id", executionId);
        m.put("ename", ename);
        m.put("message", message);
        return Json.write(m);
    }

    private static Map<String, Object> installFields(RunnerInstall install) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("language", install.language().wire());
        m.put("packages", new java.util.ArrayList<Object>(install.packages()));
        m.put("cached", install.cached());
        m.put("fetch_ms", install.fetchMs());
        java.util.List<Object> artifacts = new java.util.ArrayList<>();
        for (RunnerInstall.Artifact a : install.artifacts()) {
            Map<String, Object> am = new LinkedHashMap<>();
            am.put("path", a.path());
            am.put("sha256", a.sha256());
            am.put("dest", a.dest());
            artifacts.add(am);
        }
        m.put("artifacts", artifacts);
        return m;
    }

    static String encodeRunnerCommand(String type) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        return Json.write(m);
    }
}
