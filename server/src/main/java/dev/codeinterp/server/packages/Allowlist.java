package dev.codeinterp.server.packages;

import dev.codeinterp.model.Language;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which packages a cell may ask for. The file (the default ships as
 * {@code server/src/main/resources/packages/allowlist.txt}; {@code CODEINTERP_PACKAGES_ALLOWLIST}
 * names another) holds one {@code <language> <name> [preinstalled]} a line, {@code #} comments.
 * Names are compared normalised (PEP 503 for Python). The list names what may be asked for; each
 * package's own dependencies come with it as its ecosystem resolves them. {@code preinstalled}
 * marks what the image already has: asking for it is fine and installs nothing (agents often list
 * numpy or pandas out of habit).
 */
public final class Allowlist {
    static final String DEFAULT_RESOURCE = "/packages/allowlist.txt";

    private final Set<String> allowed;
    private final Set<String> preinstalled;

    private Allowlist(Set<String> allowed, Set<String> preinstalled) {
        this.allowed = Set.copyOf(allowed);
        this.preinstalled = Set.copyOf(preinstalled);
    }

    /** The file at {@code path}, or the shipped default when it is null. */
    public static Allowlist load(Path path) {
        try {
            if (path != null) {
                return parse(Files.readAllLines(path, StandardCharsets.UTF_8), path.toString());
            }
            try (InputStream in = Allowlist.class.getResourceAsStream(DEFAULT_RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("the default package allowlist " + DEFAULT_RESOURCE + " is missing");
                }
                return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList(), DEFAULT_RESOURCE);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the package allowlist " + path, e);
        }
    }

    static Allowlist parse(List<String> lines, String source) {
        Set<String> allowed = new HashSet<>();
        Set<String> preinstalled = new HashSet<>();
        int number = 0;
        for (String raw : lines) {
            number++;
            String line = raw.replaceFirst("#.*", "").strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split("\\s+");
            if (parts.length != 2 && !(parts.length == 3 && parts[2].equals("preinstalled"))) {
                throw new IllegalArgumentException(source + ":" + number + ": expected '<python|javascript> <name> [preinstalled]', got '"
                        + line + "'");
            }
            Language language;
            try {
                language = Language.fromWire(parts[0]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(source + ":" + number + ": " + e.getMessage(), e);
            }
            PackageSpec spec = PackageSpec.parse(language, parts[1]);
            if (spec.version() != null) {
                throw new IllegalArgumentException(source + ":" + number + ": list names only, without versions");
            }
            allowed.add(key(language, spec.name()));
            if (parts.length == 3) {
                preinstalled.add(key(language, spec.name()));
            }
        }
        return new Allowlist(allowed, preinstalled);
    }

    public boolean allows(PackageSpec spec) {
        return allowed.contains(key(spec.language(), spec.name()));
    }

    /** In the image already: nothing to fetch or install. */
    public boolean preinstalled(PackageSpec spec) {
        return preinstalled.contains(key(spec.language(), spec.name()));
    }

    public int size() {
        return allowed.size();
    }

    private static String key(Language language, String normalisedName) {
        return language.wire() + " " + normalisedName;
    }
}
