package dev.codeinterp.server.files;

import java.util.Locale;
import java.util.Map;

/** A file's MIME type by its extension; unknown types are opaque bytes. */
public final class MimeTypes {
    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
            Map.entry("csv", "text/csv"),
            Map.entry("tsv", "text/tab-separated-values"),
            Map.entry("txt", "text/plain"),
            Map.entry("log", "text/plain"),
            Map.entry("md", "text/markdown"),
            Map.entry("py", "text/x-python"),
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

    public static String of(String name) {
        int dot = name.lastIndexOf('.');
        if (dot < 0 || dot == name.length() - 1) {
            return "application/octet-stream";
        }
        return BY_EXTENSION.getOrDefault(name.substring(dot + 1).toLowerCase(Locale.ROOT), "application/octet-stream");
    }

    /** Images a browser may show inline as an {@code <img>} (never SVG: it is a document). */
    public static boolean isInlineImage(String mime) {
        return mime.equals("image/png") || mime.equals("image/jpeg") || mime.equals("image/gif") || mime.equals("image/webp");
    }
}
