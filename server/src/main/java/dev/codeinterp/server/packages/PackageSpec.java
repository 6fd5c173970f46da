package dev.codeinterp.server.packages;

import dev.codeinterp.model.Language;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One entry of a cell's {@code packages}: a name, normalised as its ecosystem does, and an optional
 * exact version. Everything else is refused here, before any tool sees it: options
 * ({@code --index-url=…}), paths ({@code ../x}), URLs ({@code git+https://…}), ranges, spaces,
 * extras. The grammar is each ecosystem's name rule (PEP 508 names, npm's package names), so no
 * accepted spec can start with {@code -} or hold a separator a tool would read differently.
 */
public record PackageSpec(Language language, String name, String version) {
    private static final int MAX_LENGTH = 214; // npm's limit on a name; far beyond any PyPI name
    private static final Pattern PYTHON = Pattern.compile(
            "([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(?:==([0-9][A-Za-z0-9.+!_-]*))?");
    private static final Pattern NPM = Pattern.compile(
            "((?:@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*)(?:@([0-9][A-Za-z0-9.+-]*))?");
    private static final Pattern PEP_503_RUN = Pattern.compile("[-_.]+");

    /** Reads what a request gave; a {@link PackageRefusedException} naming it when it is not a plain name. */
    public static PackageSpec parse(Language language, String given) {
        if (given == null || given.isEmpty() || given.length() > MAX_LENGTH) {
            throw refused(language, given, "is not a package name");
        }
        Matcher m = switch (language) {
            case PYTHON -> PYTHON.matcher(given);
            case JAVASCRIPT -> NPM.matcher(given);
            case BASH -> throw new PackageRefusedException("packages are installed for python and javascript cells, not bash");
        };
        if (!m.matches()) {
            throw refused(language, given, language == Language.PYTHON
                    ? "is not a package name: give a name from the index, optionally with an exact version (name==1.2.3)"
                    : "is not an npm package name: give a name from the registry, optionally with an exact version (name@1.2.3)");
        }
        return new PackageSpec(language, normalise(language, m.group(1)), m.group(2));
    }

    /** PEP 503 for Python (case and runs of {@code -_.} do not matter); npm names are already lowercase and exact. */
    public static String normalise(Language language, String name) {
        return language == Language.PYTHON ? PEP_503_RUN.matcher(name).replaceAll("-").toLowerCase(Locale.ROOT) : name;
    }

    /** What the ecosystem's tool is given: {@code name==version} or {@code name@version}. */
    public String requirement() {
        if (version == null) {
            return name;
        }
        return language == Language.PYTHON ? name + "==" + version : name + "@" + version;
    }

    private static PackageRefusedException refused(Language language, String given, String why) {
        return new PackageRefusedException(language.wire() + " package '" + printable(given) + "' " + why);
    }

    /** The name as a message may show it: bounded, control characters as {@code ?}. */
    static String printable(String given) {
        if (given == null) {
            return "null";
        }
        String cut = given.length() > 80 ? given.substring(0, 80) + "…" : given;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
