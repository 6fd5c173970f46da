package dev.codeinterp.web.view;

public final class Format {
    private Format() {
    }

    static String duration(long ms) {
        if (ms < 1000) {
            return ms + " ms";
        }
        long tenths = ms / 100;
        if (ms < 60_000) {
            return (tenths / 10) + "." + (tenths % 10) + " s";
        }
        return (ms / 60_000) + " min " + ((ms / 1000) % 60) + " s";
    }

    static String memory(long kb) {
        return kb < 10 * 1024 ? kb + " KiB" : (kb / 1024) + " MiB";
    }

    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        if (n < 1024 * 1024) {
            return (n / 1024) + " KiB";
        }
        long tenths = n * 10 / (1024 * 1024);
        return tenths < 1000 ? (tenths / 10) + "." + (tenths % 10) + " MiB" : (n >> 20) + " MiB";
    }
}
