package dev.codeinterp.server.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * The server's event-store commits between two scrapes of its {@code /metrics}: how many, and how long
 * each took (its {@code codeinterp_store_commit_seconds} histogram; the commit alone, not the
 * statements before it). The figure issue 25 asks for beside each database's latency.
 */
final class StoreCommits {
    private static final String NAME = "codeinterp_store_commit_seconds";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final double count;
    private final double sum;
    /** Upper bound (seconds) to the cumulative count of commits at most that long. */
    private final TreeMap<Double, Double> buckets;

    private StoreCommits(double count, double sum, TreeMap<Double, Double> buckets) {
        this.count = count;
        this.sum = sum;
        this.buckets = buckets;
    }

    /** The server's histogram now; null when /metrics does not answer with it. */
    static StoreCommits scrape(String baseUrl, String apiKey) {
        try {
            HttpRequest.Builder get = HttpRequest.newBuilder(URI.create(baseUrl + "/metrics")).timeout(Duration.ofSeconds(10));
            if (apiKey != null) {
                get.header("Authorization", "Bearer " + apiKey);
            }
            HttpResponse<String> answer = HTTP.send(get.build(), HttpResponse.BodyHandlers.ofString());
            return answer.statusCode() == 200 ? parse(answer.body()) : null;
        } catch (java.io.IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    static StoreCommits parse(String metrics) {
        double count = Double.NaN;
        double sum = Double.NaN;
        TreeMap<Double, Double> buckets = new TreeMap<>();
        for (String line : metrics.split("\n")) {
            if (!line.startsWith(NAME)) {
                continue;
            }
            String[] parts = line.trim().split("\\s+");
            double value = Double.parseDouble(parts[parts.length - 1]);
            if (line.startsWith(NAME + "_count")) {
                count = value;
            } else if (line.startsWith(NAME + "_sum")) {
                sum = value;
            } else if (line.startsWith(NAME + "_bucket")) {
                String le = line.substring(line.indexOf("le=\"") + 4, line.indexOf('"', line.indexOf("le=\"") + 4));
                buckets.put(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le), value);
            }
        }
        return Double.isNaN(count) ? null : new StoreCommits(count, sum, buckets);
    }

    /** "n commits (c a cell), mean m ms, p50 ≤ x ms, p95 ≤ y ms" over the time since {@code before}. */
    String since(StoreCommits before, long cells) {
        double n = count - before.count;
        if (n <= 0) {
            return "none";
        }
        return String.format("%.0f commits (%.2f a cell), mean %.2f ms, p50 <= %s ms, p95 <= %s ms", n, cells > 0 ? n / cells : Double.NaN,
                (sum - before.sum) / n * 1000, bound(before, 0.50 * n), bound(before, 0.95 * n));
    }

    /** The smallest bucket bound under which at least {@code commits} of the window's commits fell. */
    private String bound(StoreCommits before, double commits) {
        for (Map.Entry<Double, Double> b : buckets.entrySet()) {
            if (b.getValue() - before.buckets.getOrDefault(b.getKey(), 0.0) >= commits) {
                return b.getKey().isInfinite() ? "inf" : String.valueOf(b.getKey() * 1000);
            }
        }
        return "inf";
    }
}
