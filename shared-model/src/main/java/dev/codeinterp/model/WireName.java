package dev.codeinterp.model;

/**
 * An enum constant with a name on the wire. Each such enum keeps its wire names as constructor
 * arguments (never derived from {@code name()}, so renaming a constant cannot change the wire) and
 * reads them back with {@link #find}, which takes the enum's own {@code values()}: plain Java that
 * TeaVM compiles, no reflection.
 */
public interface WireName {
    /** The constant's name on the wire. */
    String wire();

    /** The constant of {@code values} whose wire name is {@code name}, or null when none is (or name is null). */
    static <E extends WireName> E find(E[] values, String name) {
        for (E value : values) {
            if (value.wire().equals(name)) {
                return value;
            }
        }
        return null;
    }
}
