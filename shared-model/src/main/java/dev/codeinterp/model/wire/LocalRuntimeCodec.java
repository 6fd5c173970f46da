package dev.codeinterp.model.wire;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.local.LocalRuntimeConfig;
import dev.codeinterp.model.local.WheelIndex;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the server tells local mode's runtime page (read by its JavaScript, so camelCase keys). */
final class LocalRuntimeCodec {
    private LocalRuntimeCodec() {
    }

    static String encode(LocalRuntimeConfig c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pyodideVersion", c.pyodideVersion());
        m.put("indexURL", c.indexUrl());
        m.put("packagesURL", c.packagesUrl());
        m.put("runtimeURL", c.runtimeUrl());
        m.put("wheelsURL", c.wheelsUrl());
        m.put("maxUploadBytes", c.maxUploadBytes());
        m.put("timeoutMs", c.timeoutMs());
        m.put("maxTimeoutMs", c.maxTimeoutMs());
        m.put("maxOutputBytes", c.maxOutputBytes());
        m.put("inputTimeoutMs", c.inputTimeoutMs());
        m.put("interruptGraceMs", c.interruptGraceMs());
        return Json.write(m);
    }

    static String encode(WheelIndex index) {
        List<Object> wheels = new ArrayList<>();
        for (WheelIndex.Wheel w : index.wheels()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("file", w.file());
            entry.put("size", w.size());
            entry.put("imports", new ArrayList<Object>(w.imports()));
            wheels.add(entry);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("wheels", wheels);
        return Json.write(m);
    }
}
