package dev.codeinterp.model.wire;

import dev.codeinterp.model.Limit;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ClientMessageType;
import dev.codeinterp.model.session.ServerMessage;

import java.util.LinkedHashMap;
import java.util.Map;

/** The frames of a session's WebSocket, both ways. */
final class FrameCodec {
    private FrameCodec() {
    }

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
}
