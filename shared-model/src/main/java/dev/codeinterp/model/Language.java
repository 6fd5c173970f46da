package dev.codeinterp.model;

/** The language of a cell. Each keeps its own interpreter state in a session (docs/protocol.md). */
public enum Language {
    PYTHON("python"),
    JAVASCRIPT("javascript"),
    BASH("bash");

    private final String wire;

    Language(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
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
        throw new IllegalArgumentException("language '" + name + "' is not supported; use python, javascript or bash");
    }
}
