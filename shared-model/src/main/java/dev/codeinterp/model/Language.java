package dev.codeinterp.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The language of a cell. Each keeps its own interpreter state in a session (docs/protocol.md).
 * The one list of languages: the MCP catalog and the assistant's tools are made from it; the
 * runner's {@code protocol.py}, local mode's {@code cell-limits.mjs} and {@code openapi.json} are held to
 * it by {@code LanguageListTest}.
 */
public enum Language implements WireName {
    PYTHON("python"),
    JAVASCRIPT("javascript"),
    BASH("bash");

    private final String wire;

    Language(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    /** Every language's wire name, in order: {@code python}, {@code javascript}, {@code bash}. */
    public static List<String> wireNames() {
        List<String> names = new ArrayList<>();
        for (Language language : values()) {
            names.add(language.wire);
        }
        return names;
    }

    /** The names as a person reads them in a list: "python, javascript or bash". */
    public static String spokenList() {
        List<String> names = wireNames();
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    /** The language a request names; null means Python. Unknown names are refused with a message for the user. */
    public static Language fromWire(String name) {
        if (name == null) {
            return PYTHON;
        }
        for (Language language : values()) {
            if (language.wire.equalsIgnoreCase(name.trim())) {
                return language;
            }
        }
        throw new IllegalArgumentException("language '" + name + "' is not supported; use " + spokenList());
    }
}
