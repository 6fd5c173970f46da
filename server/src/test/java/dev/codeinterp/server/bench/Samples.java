package dev.codeinterp.server.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Measured values of one figure, added from many threads, summarised as percentiles. */
final class Samples {
    private final List<Double> values = new ArrayList<>();

    synchronized void add(double value) {
        values.add(value);
    }

    synchronized int count() {
        return values.size();
    }

    synchronized List<Double> sorted() {
        List<Double> copy = new ArrayList<>(values);
        Collections.sort(copy);
        return copy;
    }

    /** Nearest-rank percentile; NaN when nothing was measured. */
    double percentile(int p) {
        List<Double> s = sorted();
        if (s.isEmpty()) {
            return Double.NaN;
        }
        int index = (int) Math.ceil(p / 100.0 * s.size()) - 1;
        return s.get(Math.max(0, Math.min(index, s.size() - 1)));
    }

    double max() {
        List<Double> s = sorted();
        return s.isEmpty() ? Double.NaN : s.get(s.size() - 1);
    }

    double sum() {
        double total = 0;
        for (double v : sorted()) {
            total += v;
        }
        return total;
    }

    /** e.g. "p50=3.1 p95=9.0 max=12.4 ms (n=200)". */
    String summary(String unit, int... percentiles) {
        StringBuilder sb = new StringBuilder();
        for (int p : percentiles) {
            sb.append(String.format("p%d=%.1f ", p, percentile(p)));
        }
        return sb.append(String.format("max=%.1f %s (n=%d)", max(), unit, count())).toString();
    }
}
