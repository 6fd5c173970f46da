package dev.codeinterp.model.rules;

import java.util.Locale;
import java.util.Map;

/**
 * A file's MIME type by its extension, and which types show inline. One table for both modes: the
 * server's file listings and artifacts use it directly; the local runtime mirrors it, and
 * {@code rules/mime-types.json} (shared-model's test resources) holds the cases every copy must
 * answer alike.
 */
public final class MimeTypes {
    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
            Map.entry("csv", "text/csv"),
            Map.entry("tsv", "text/tab-separated-values"),
            Map.entry("txt", "text/plain"),
            Map.entry("log", "text/plain"),
            Map.entry("md", "text/markdown"),
            Map.entry("py", "text/x-python"),
            Map.entry("js", "text/javascript"),
            Map.entry("mjs", "text/javascript"),
            Map.entry("wasm", "application/wasm"),
            Map.entry("json", "application/json"),
            Map.entry("jsonl", "application/x-ndjson"),
            Map.entry("xml", "application/xml"),
            Map.entry("html", "text/html"),
            Map.entry("htm", "text/html"),
            Map.entry("png", "image/png"),
            Map.entry("jpg", "image/jpeg"),
            Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"),
            Map.entry("webp", "image/webp"),
            Map.entry("svg", "image/svg+xml"),
            Map.entry("pdf", "application/pdf"),
            Map.entry("zip", "application/zip"),
            Map.entry("gz", "application/gzip"),
            Map.entry("parquet", "application/vnd.apache.parquet"),
            Map.entry("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            Map.entry("xls", "application/vnd.ms-excel"),
            Map.entry("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
            Map.entry("pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"));

    private MimeTypes() {
    }

    /** The whole table, extension (lower case, no dot) to type, for the copies that mirror it. */
    public static Map<String, String> byExtension() {
        return BY_EXTENSION;
    }

    public static String of(String name) {
        int dot = name.lastIndexOf('.');
        if (dot < 0 || dot == name.length() - 1) {
            return "application/octet-stream";
        }
        return BY_EXTENSION.getOrDefault(name.substring(dot + 1).toLowerCase(Locale.ROOT), "application/octet-stream");
    }

    /** Images a browser may show inline as an {@code <img>} (never SVG: it is a document that can script). */
    public static boolean isInlineImage(String mime) {
        return mime.equals("image/png") || mime.equals("image/jpeg") || mime.equals("image/gif") || mime.equals("image/webp");
    }
}
