package dev.codeinterp.model.wire;

import dev.codeinterp.model.Language;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.runner.CellInput;
import dev.codeinterp.model.runner.RunnerInstall;
import dev.codeinterp.model.runner.RunnerMessage;

import java.util.LinkedHashMap;
import java.util.Map;

/** The lines between server and runner, both ways (docs/runner-protocol.md). */
final class RunnerCodec {
    private RunnerCodec() {
    }

    static RunnerMessage decodeRunnerLine(String line) {
        JsonObject o = JsonObject.parse(line);
        String type = o.string("type");
        if ("ready".equals(type)) {
            return new RunnerMessage.Ready(o.optString("python", "?"), o.optInteger("pid", 0));
        }
        if ("replay".equals(type)) {
            return new RunnerMessage.Replay(o.optInteger("from", 0), o.optInteger("lost", 0));
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

    /** {@code ack}: the server stored the runner's lines numbered below {@code lines}; the runner may forget them. */
    static String encodeRunnerLineNumber(String type, String field, long lines) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        m.put(field, lines);
        return Json.write(m);
    }

    static String encodeRunnerCommand(String type) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        return Json.write(m);
    }
}
