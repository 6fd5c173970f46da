package dev.codeinterp.model.embed;

import dev.codeinterp.model.json.JsonException;
import dev.codeinterp.model.json.JsonObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The files an embed widget puts in its workspace before anything runs (its {@code files} option
 * names the manifest): {@code {"files": [{"name": "sales.csv", "url": "data/sales.csv"}, ...]}},
 * each URL absolute or relative to the manifest's own. The widget fetches only from origins the
 * server lets frame it, and the workspace checks each name as it checks any upload.
 */
public record EmbedManifest(List<Entry> files) {
    public static final int MAX_FILES = 50;

    public record Entry(String name, String url) {
    }

    public EmbedManifest {
        files = List.copyOf(files);
    }

    /** The manifest in {@code json}; a clear {@link JsonException} for anything else. */
    public static EmbedManifest decode(String json) {
        JsonObject manifest = JsonObject.parse(json);
        if (!manifest.has("files")) {
            throw new JsonException("a manifest is {\"files\": [{\"name\", \"url\"}, ...]}");
        }
        List<JsonObject> entries = manifest.objectList("files");
        if (entries.size() > MAX_FILES) {
            throw new JsonException("a manifest lists at most " + MAX_FILES + " files, not " + entries.size());
        }
        List<Entry> files = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonObject o : entries) {
            Entry e = new Entry(o.string("name"), o.string("url"));
            if (e.name().isEmpty() || e.url().isEmpty()) {
                throw new JsonException("every file in a manifest needs a name and a url");
            }
            if (!names.add(e.name())) {
                throw new JsonException("the manifest lists " + e.name() + " twice");
            }
            files.add(e);
        }
        return new EmbedManifest(files);
    }
}
