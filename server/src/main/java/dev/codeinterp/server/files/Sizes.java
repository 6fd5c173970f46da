package dev.codeinterp.server.files;

/** Byte counts as people read them. */
public final class Sizes {
    private Sizes() {
    }

    public static String human(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= 1L << 20) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1L << 10) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " bytes";
    }
}
