package dev.codeinterp.server.packages;

import java.nio.file.Path;
import java.util.List;

/** One ecosystem's fetch step: its own tool resolves and downloads; nothing of what it fetches runs. */
interface Fetcher {

    /** Downloads {@code specs} and everything they depend on into {@code dir}; the files and where each goes. */
    List<Fetched> fetch(List<PackageSpec> specs, Path dir);

    /** The index or registry the fetch reads, part of the cache key. */
    String source();

    /** A downloaded file; {@code dest} is its place in the session's tree (npm), null for wheels. */
    record Fetched(Path file, String dest) {
    }
}
