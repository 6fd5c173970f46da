package dev.codeinterp.server.files;

/** One regular file at the top of a workspace. */
public record WorkspaceFile(String name, long size, long modifiedMs, String mime) {
}
