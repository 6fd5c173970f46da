package dev.codeinterp.server.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Parses {@code CODEINTERP_<NAME>} values, naming the variable in every error. */
final class EnvReader {
    private static final String PREFIX = "CODEINTERP_";
    private static final Pattern DURATION = Pattern.compile("[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)?");
    private final Map<String, String> env;

    EnvReader(Map<String, String> env) {
        this.env = env;
    }

    String string(String name, String fallback) {
        String v = env.get(PREFIX + name);
        return v == null || v.isBlank() ? fallback : v.trim();
    }

    int integer(String name, int fallback) {
        String v = string(name, null);
        try {
            return v == null ? fallback : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw invalid(name, v, "a whole number");
        }
    }

    boolean bool(String name, boolean fallback) {
        String v = string(name, null);
        if (v == null) {
            return fallback;
        }
        switch (v.toLowerCase(Locale.ROOT)) {
            case "true": case "1": case "yes": return true;
            case "false": case "0": case "no": return false;
            default: throw invalid(name, v, "true or false");
        }
    }

    double decimal(String name, double fallback) {
        String v = string(name, null);
        try {
            return v == null ? fallback : Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw invalid(name, v, "a number");
        }
    }

    /** "30s", "500ms", "5m", "1h", "7d", or plain seconds. */
    Duration duration(String name, Duration fallback) {
        String v = string(name, null);
        if (v == null) {
            return fallback;
        }
        try {
            String s = v.toLowerCase(Locale.ROOT);
            if (!DURATION.matcher(s).matches()) {
                // Double.parseDouble alone would take "7d" or "2f" for 7 and 2 seconds
                throw new NumberFormatException(s);
            }
            if (s.endsWith("d")) {
                return Duration.ofDays(Long.parseLong(s.substring(0, s.length() - 1)));
            }
            if (s.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
            }
            if (s.endsWith("s")) {
                return Duration.ofMillis((long) (Double.parseDouble(s.substring(0, s.length() - 1)) * 1000));
            }
            if (s.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(s.substring(0, s.length() - 1)));
            }
            if (s.endsWith("h")) {
                return Duration.ofHours(Long.parseLong(s.substring(0, s.length() - 1)));
            }
            return Duration.ofMillis((long) (Double.parseDouble(s) * 1000));
        } catch (NumberFormatException e) {
            throw invalid(name, v, "a duration like 30s, 500ms, 5m, 1h or 7d");
        }
    }

    /** "1048576", "64k", "512m", "1g" (binary units). */
    long bytes(String name, long fallback) {
        String v = string(name, null);
        if (v == null) {
            return fallback;
        }
        try {
            String s = v.toLowerCase(Locale.ROOT).replace("ib", "").replace("b", "");
            long unit = 1;
            char last = s.charAt(s.length() - 1);
            if (last == 'k' || last == 'm' || last == 'g') {
                unit = last == 'k' ? 1L << 10 : last == 'm' ? 1L << 20 : 1L << 30;
                s = s.substring(0, s.length() - 1);
            }
            return Long.parseLong(s.trim()) * unit;
        } catch (RuntimeException e) {
            throw invalid(name, v, "a size like 1048576, 64k, 512m or 1g");
        }
    }

    List<String> list(String name) {
        String v = string(name, null);
        return v == null ? List.of() : Arrays.stream(v.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList();
    }

    private IllegalArgumentException invalid(String name, String value, String expected) {
        return new IllegalArgumentException(PREFIX + name + "='" + value + "' is not " + expected);
    }
}
