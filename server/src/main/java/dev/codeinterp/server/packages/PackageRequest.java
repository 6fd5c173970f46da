package dev.codeinterp.server.packages;

import dev.codeinterp.model.Language;

import java.util.List;

/** A cell's {@code packages}, checked against the allowlist: what the fetch step and the runner are given. */
public record PackageRequest(Language language, List<PackageSpec> specs) {
    public static final PackageRequest NONE = new PackageRequest(Language.PYTHON, List.of());

    public PackageRequest {
        specs = List.copyOf(specs);
    }

    public boolean isEmpty() {
        return specs.isEmpty();
    }

    /** The names as the event shows them: normalised, with their versions. */
    public List<String> requirements() {
        return specs.stream().map(PackageSpec::requirement).toList();
    }
}
