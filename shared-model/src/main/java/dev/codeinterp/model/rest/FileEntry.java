package dev.codeinterp.model.rest;

/**
 * A file in a session's workspace as the API lists it. {@code url} is where to download it (with
 * the session's token; empty in local mode, where files never leave the browser).
 */
public record FileEntry(String name, long size, long modifiedMs, String mime, String url) {
}
