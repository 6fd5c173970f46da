package dev.codeinterp.model.wire;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.rest.FileEntry;
import dev.codeinterp.model.rest.FileList;
import dev.codeinterp.model.rest.UploadedFiles;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The bodies of the workspace file API: one entry, a listing, an upload's answer. */
final class WorkspaceCodec {
    private WorkspaceCodec() {
    }

    static String encode(FileEntry f) {
        return Json.write(fields(f));
    }

    static FileEntry decodeFileEntry(String json) {
        return decodeFileEntry(JsonObject.parse(json));
    }

    static String encode(FileList list) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("files", fields(list.files()));
        m.put("used_bytes", list.usedBytes());
        m.put("limit_bytes", list.limitBytes());
        m.put("max_upload_bytes", list.maxUploadBytes());
        return Json.write(m);
    }

    static FileList decodeFileList(String json) {
        JsonObject o = JsonObject.parse(json);
        return new FileList(entries(o), o.optInteger("used_bytes", 0), o.optInteger("limit_bytes", 0),
                o.optInteger("max_upload_bytes", 0));
    }

    static String encode(UploadedFiles uploaded) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("files", fields(uploaded.files()));
        return Json.write(m);
    }

    static UploadedFiles decodeUploadedFiles(String json) {
        return new UploadedFiles(entries(JsonObject.parse(json)));
    }

    private static Map<String, Object> fields(FileEntry f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", f.name());
        m.put("size", f.size());
        m.put("modified", f.modifiedMs());
        m.put("mime", f.mime());
        m.put("url", f.url());
        return m;
    }

    /** A file list as the browser-side channels carry it (runtime frame, embed widget): no REST url. */
    static List<Object> fieldsWithoutUrl(List<FileEntry> files) {
        List<Object> out = new ArrayList<>();
        for (FileEntry f : files) {
            Map<String, Object> m = fields(f);
            m.remove("url");
            out.add(m);
        }
        return out;
    }

    private static List<Object> fields(List<FileEntry> files) {
        List<Object> out = new ArrayList<>();
        for (FileEntry f : files) {
            out.add(fields(f));
        }
        return out;
    }

    private static FileEntry decodeFileEntry(JsonObject o) {
        return new FileEntry(o.string("name"), o.optInteger("size", 0), o.optInteger("modified", 0),
                o.optString("mime", "application/octet-stream"), o.optString("url", ""));
    }

    private static List<FileEntry> entries(JsonObject o) {
        List<FileEntry> out = new ArrayList<>();
        for (JsonObject f : o.objectList("files")) {
            out.add(decodeFileEntry(f));
        }
        return out;
    }
}
