package dev.codeinterp.model.rest;

import java.util.List;

/** The answer of {@code GET /api/v1/sessions/{id}/files}: the workspace's files and its room. */
public record FileList(List<FileEntry> files, long usedBytes, long limitBytes, long maxUploadBytes) {
}
