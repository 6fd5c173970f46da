package dev.codeinterp.model.runner;

import dev.codeinterp.model.Language;

import java.util.List;

/**
 * What the runner installs before a cell's code runs: artifacts the server fetched, verified and
 * cached, read from the sandbox's read-only package mount by {@code path} and checked against
 * {@code sha256} again. {@code dest} is where an npm tarball goes (its path in the lockfile, e.g.
 * {@code node_modules/is-odd}); wheels have none. See docs/runner-protocol.md.
 */
public record RunnerInstall(Language language, List<String> packages, boolean cached, long fetchMs, List<Artifact> artifacts) {

    public record Artifact(String path, String sha256, String dest) {
    }
}
