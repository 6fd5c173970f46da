package dev.codeinterp.server.metrics;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format 0.0.4 (the Java client has a writer but
 * no parser): every line is a HELP, a TYPE, another comment, blank, or a sample; names and label
 * names must be legal, label values properly escaped, values floats, a family typed at most once
 * and before its samples, no series twice. Anything else is an {@link IllegalArgumentException}
 * naming the line.
 */
public final class PrometheusText {
    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") (.*)");
    private static final Pattern TYPE = Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(\\{(.*)})? (\\S+)( -?[0-9]+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"(,|$)");
    private static final Set<String> SUFFIXES = Set.of("_total", "_created", "_bucket", "_count", "_sum", "_info");

    /** Series ({@code name{a="b",c="d"}}, labels sorted by name) to their value. */
    private final Map<String, Double> samples = new LinkedHashMap<>();
    private final Map<String, String> types = new LinkedHashMap<>();

    private PrometheusText() {
    }

    public static PrometheusText parse(String text) {
        PrometheusText out = new PrometheusText();
        Set<String> sampled = new HashSet<>();
        Set<String> helped = new HashSet<>();
        String[] lines = text.split("\n", -1);
        if (!text.isEmpty() && !text.endsWith("\n")) {
            throw new IllegalArgumentException("the exposition does not end with a newline");
        }
        for (int i = 0; i < lines.length - 1; i++) {
            String line = lines[i];
            String where = "line " + (i + 1) + ": " + line;
            if (line.isEmpty()) {
                continue;
            }
            Matcher m;
            if ((m = TYPE.matcher(line)).matches()) {
                if (out.types.put(m.group(1), m.group(2)) != null || sampled.contains(m.group(1))) {
                    throw new IllegalArgumentException("TYPE repeated or after samples, " + where);
                }
            } else if ((m = HELP.matcher(line)).matches()) {
                if (!helped.add(m.group(1))) {
                    throw new IllegalArgumentException("HELP repeated, " + where);
                }
            } else if (line.startsWith("#")) {
                if (line.startsWith("# HELP") || line.startsWith("# TYPE")) {
                    throw new IllegalArgumentException("malformed HELP or TYPE, " + where);
                }
            } else if ((m = SAMPLE.matcher(line)).matches()) {
                String series = m.group(1) + "{" + labels(m.group(3) == null ? "" : m.group(3), where) + "}";
                sampled.add(family(m.group(1)));
                sampled.add(m.group(1));
                if (out.samples.put(series, value(m.group(4), where)) != null) {
                    throw new IllegalArgumentException("series repeated, " + where);
                }
            } else {
                throw new IllegalArgumentException("not a HELP, TYPE, comment or sample, " + where);
            }
        }
        return out;
    }

    private static String labels(String body, String where) {
        List<String> pairs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Matcher m = LABEL.matcher(body);
        int at = 0;
        while (at < body.length()) {
            if (!m.find(at) || m.start() != at) {
                throw new IllegalArgumentException("malformed labels, " + where);
            }
            if (!names.add(m.group(1))) {
                throw new IllegalArgumentException("label repeated, " + where);
            }
            pairs.add(m.group(1) + "=\"" + m.group(2) + "\"");
            at = m.end();
        }
        pairs.sort(null); // the same series whatever order its labels are written in
        return String.join(",", pairs);
    }

    private static double value(String text, String where) {
        switch (text) {
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            case "NaN":
                return Double.NaN;
            default:
                try {
                    return Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("value is not a float, " + where);
                }
        }
    }

    private static String family(String name) {
        for (String suffix : SUFFIXES) {
            if (name.endsWith(suffix)) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return name;
    }

    /** The value of one series, e.g. {@code codeinterp_executions_total{status="ok",language="python"}}; 0 when absent. */
    public double value(String series) {
        int brace = series.indexOf('{');
        String key = brace < 0 ? series + "{}"
                : series.substring(0, brace) + "{" + labels(series.substring(brace + 1, series.length() - 1), series) + "}";
        return samples.getOrDefault(key, 0.0);
    }

    /** The sum over every series of a sample name, whatever its labels. */
    public double sum(String name) {
        return samples.entrySet().stream().filter(e -> e.getKey().startsWith(name + "{"))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    public boolean has(String name) {
        return samples.keySet().stream().anyMatch(k -> k.startsWith(name + "{"));
    }

    public String type(String family) {
        return types.get(family);
    }

    public Set<String> series() {
        return samples.keySet();
    }
}
