package dev.codeinterp.model.rest;

import java.util.List;

/** The 201 answer of a multipart {@code POST /api/v1/sessions/{id}/files}: the entries of the files stored. */
public record UploadedFiles(List<FileEntry> files) {
}
