package dev.codeinterp.model.wire;

import dev.codeinterp.model.embed.EmbedMessage;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.rest.FileEntry;
import dev.codeinterp.model.rest.FileList;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON text of {@link EmbedMessage}s, both ways. The frame's channel module turns each posted
 * object into this text and back. What the host page sends is hostile input: a message that does
 * not decode is a {@link JsonException}, answered with an {@code error} if it had an id.
 */
final class EmbedCodec {
    private EmbedCodec() {
    }

    static String encode(EmbedMessage message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", message.type().wire());
        switch (message.type()) {
            case RUN: {
                EmbedMessage.Run r = (EmbedMessage.Run) message;
                m.put("id", r.id());
                m.put("code", r.code());
                m.put("language", r.language());
                break;
            }
            case SET_CODE: {
                EmbedMessage.SetCode s = (EmbedMessage.SetCode) message;
                m.put("id", s.id());
                m.put("code", s.code());
                break;
            }
            case GET_CODE:
            case RESET:
            case LIST_FILES:
                m.put("id", ((EmbedMessage.ToWidget) message).id());
                break;
            case CLEAR: {
                EmbedMessage.Clear c = (EmbedMessage.Clear) message;
                m.put("id", c.id());
                m.put("restart", c.restart());
                break;
            }
            case PUT_FILE:
            case GET_FILE:
                m.put("id", ((EmbedMessage.ToWidget) message).id());
                m.put("name", message instanceof EmbedMessage.PutFile p ? p.name() : ((EmbedMessage.GetFile) message).name());
                break;
            case FILE_LIST: {
                EmbedMessage.FileList f = (EmbedMessage.FileList) message;
                m.put("id", f.id());
                m.put("files", WorkspaceCodec.fieldsWithoutUrl(f.files()));
                break;
            }
            case FILE_CONTENT: {
                EmbedMessage.FileContent c = (EmbedMessage.FileContent) message;
                m.put("id", c.id());
                m.put("name", c.name());
                m.put("mime", c.mime());
                break;
            }
            case SET_THEME: {
                EmbedMessage.SetTheme t = (EmbedMessage.SetTheme) message;
                m.put("id", t.id());
                m.put("theme", t.theme());
                break;
            }
            case SET_OPTIONS: {
                EmbedMessage.SetOptions o = (EmbedMessage.SetOptions) message;
                m.put("id", o.id());
                putIfSet(m, "readonly", o.readonly());
                putIfSet(m, "ui", o.ui());
                putIfSet(m, "maxHeight", o.maxHeight());
                break;
            }
            case HELLO: {
                EmbedMessage.Hello h = (EmbedMessage.Hello) message;
                m.put("version", (long) h.version());
                m.put("capabilities", h.capabilities());
                break;
            }
            case READY: {
                EmbedMessage.Ready r = (EmbedMessage.Ready) message;
                m.put("runtime", r.runtime());
                m.put("description", r.description());
                break;
            }
            case STATUS:
                m.put("state", ((EmbedMessage.StatusChange) message).state());
                break;
            case STREAM: {
                EmbedMessage.Stream s = (EmbedMessage.Stream) message;
                m.put("id", s.id());
                m.put("name", s.name());
                m.put("text", s.text());
                break;
            }
            case DISPLAY: {
                EmbedMessage.Display d = (EmbedMessage.Display) message;
                m.put("id", d.id());
                m.put("data", d.data());
                break;
            }
            case FINISHED: {
                EmbedMessage.Finished f = (EmbedMessage.Finished) message;
                m.put("id", f.id());
                m.put("status", f.status());
                break;
            }
            case INPUT_REQUEST: {
                EmbedMessage.InputRequest r = (EmbedMessage.InputRequest) message;
                m.put("id", r.id());
                m.put("prompt", r.prompt());
                m.put("password", r.password());
                break;
            }
            case FILE: {
                EmbedMessage.FileWritten f = (EmbedMessage.FileWritten) message;
                m.put("id", f.id());
                m.put("name", f.name());
                m.put("size", f.size());
                m.put("mime", f.mime());
                break;
            }
            case RESIZE:
                m.put("height", ((EmbedMessage.Resize) message).height());
                break;
            case CODE_CHANGE:
                m.put("code", ((EmbedMessage.CodeChange) message).code());
                break;
            case REPLY: {
                EmbedMessage.Reply r = (EmbedMessage.Reply) message;
                m.put("id", r.id());
                if (r.result() != null) {
                    m.put("result", Json.parseObject(RestCodec.encode(r.result())));
                }
                if (r.code() != null) {
                    m.put("code", r.code());
                }
                break;
            }
            case FAILURE: {
                EmbedMessage.Failure f = (EmbedMessage.Failure) message;
                m.put("id", f.id());
                m.put("message", f.message());
                break;
            }
            default:
                throw new IllegalArgumentException("unhandled embed message " + message.type());
        }
        return Json.write(m);
    }

    /** A request from the host; a message of the widget's, or anything malformed, is a {@link JsonException}. */
    static EmbedMessage.ToWidget decodeToWidget(String json) {
        if (decode(json) instanceof EmbedMessage.ToWidget m) {
            return m;
        }
        throw new JsonException("not a request to the widget");
    }

    static EmbedMessage decode(String json) {
        JsonObject o = JsonObject.parse(json);
        String typeName = o.string("type");
        EmbedMessage.Type type = EmbedMessage.Type.fromWire(typeName);
        if (type == null) {
            throw new JsonException("unknown embed message type '" + typeName + "'");
        }
        switch (type) {
            case RUN:
                return new EmbedMessage.Run(o.string("id"), o.string("code"), o.optString("language", "python"));
            case SET_CODE:
                return new EmbedMessage.SetCode(o.string("id"), o.string("code"));
            case GET_CODE:
                return new EmbedMessage.GetCode(o.string("id"));
            case SET_THEME:
                return new EmbedMessage.SetTheme(o.string("id"), o.string("theme"));
            case SET_OPTIONS:
                return new EmbedMessage.SetOptions(o.string("id"), o.has("readonly") ? o.optBoolean("readonly", false) : null,
                        o.has("ui") ? o.string("ui") : null, o.optIntegerOrNull("maxHeight"));
            case RESET:
                return new EmbedMessage.Reset(o.string("id"));
            case CLEAR:
                return new EmbedMessage.Clear(o.string("id"), o.optBoolean("restart", false));
            case PUT_FILE:
                return new EmbedMessage.PutFile(o.string("id"), o.string("name"));
            case LIST_FILES:
                return new EmbedMessage.ListFiles(o.string("id"));
            case GET_FILE:
                return new EmbedMessage.GetFile(o.string("id"), o.string("name"));
            case FILE_LIST: {
                List<FileEntry> files = new ArrayList<>();
                for (JsonObject f : o.objectList("files")) {
                    files.add(new FileEntry(f.string("name"), f.integer("size"), f.integer("modified"), f.string("mime"), ""));
                }
                return new EmbedMessage.FileList(o.string("id"), files);
            }
            case FILE_CONTENT:
                return new EmbedMessage.FileContent(o.string("id"), o.string("name"), o.string("mime"));
            case HELLO:
                return new EmbedMessage.Hello((int) o.integer("version"), o.stringList("capabilities"));
            case READY:
                return new EmbedMessage.Ready(o.string("runtime"), o.optString("description", ""));
            case STATUS:
                return new EmbedMessage.StatusChange(o.string("state"));
            case STREAM:
                return new EmbedMessage.Stream(optId(o), o.string("name"), o.string("text"));
            case DISPLAY:
                return new EmbedMessage.Display(optId(o), o.object("data").asMap());
            case FINISHED:
                return new EmbedMessage.Finished(optId(o), o.string("status"));
            case INPUT_REQUEST:
                return new EmbedMessage.InputRequest(optId(o), o.string("prompt"), o.optBoolean("password", false));
            case FILE:
                return new EmbedMessage.FileWritten(optId(o), o.string("name"), o.integer("size"), o.string("mime"));
            case RESIZE:
                return new EmbedMessage.Resize(o.integer("height"));
            case CODE_CHANGE:
                return new EmbedMessage.CodeChange(o.string("code"));
            case REPLY:
                return new EmbedMessage.Reply(o.string("id"),
                        o.has("result") ? RestCodec.decodeExecuteResponse(Json.write(o.object("result").asMap())) : null,
                        o.has("code") ? o.string("code") : null);
            case FAILURE:
                return new EmbedMessage.Failure(optId(o), o.optString("message", ""));
            default:
                throw new JsonException("unhandled embed message type '" + typeName + "'");
        }
    }

    private static String optId(JsonObject o) {
        return o.has("id") && o.asMap().get("id") != null ? o.string("id") : null;
    }

    private static void putIfSet(Map<String, Object> m, String key, Object value) {
        if (value != null) {
            m.put(key, value);
        }
    }
}
