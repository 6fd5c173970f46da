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

    /** A setting's length of time, as people say it: "15 min", "1 h", "1 h 30 min", "45 s". */
    static String span(long seconds) {
        if (seconds < 60) {
            return seconds + " s";
        }
        if (seconds < 3600) {
            return (seconds / 60) + " min" + (seconds % 60 == 0 ? "" : " " + (seconds % 60) + " s");
        }
        long minutes = (seconds % 3600) / 60;
        return (seconds / 3600) + " h" + (minutes == 0 ? "" : " " + minutes + " min");
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
