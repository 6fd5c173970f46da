package dev.codeinterp.server.bench;

import dev.codeinterp.model.json.JsonObject;
import dev.codeinterp.model.rest.ExecuteRequest;
import dev.codeinterp.model.wire.WireCodec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The cluster scenario of bench-load.sh (issue 26) against a cluster scripts/cluster.sh brought up:
 * the busy load through the front door ({@link BusyScenario}, as it is) with how its sessions spread
 * over the nodes, and what the front door adds to a round trip against the session's own node.
 * Each part appends its row to CLUSTER_TABLE (tab-separated), which the script prints at the end,
 * after every cluster it compared has come and gone.
 */
final class ClusterScenario {
    private static final int WARM_UP = 20;

    private final BenchConfig config;
    private final Path table;
    /** "n1" -> "http://10.250.1.2:8080": each node's own URL, past the front door (cluster.sh url). */
    private final Map<String, String> nodeUrls;

    ClusterScenario(BenchConfig config, Map<String, String> env) {
        this.config = config;
        this.table = Path.of(env.getOrDefault("CLUSTER_TABLE", "/dev/null"));
        this.nodeUrls = nodeUrls(env.getOrDefault("CLUSTER_NODE_URLS", ""));
    }

    /** "n1=http://...,n2=http://..." in the order given. */
    static Map<String, String> nodeUrls(String list) {
        Map<String, String> urls = new LinkedHashMap<>();
        for (String pair : list.split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                urls.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
        return urls;
    }

    /** The first node's own URL: where the probe reads one node's /healthz (the front door would pick any). */
    String firstNodeUrl() {
        return nodeUrls.isEmpty() ? config.url() : nodeUrls.values().iterator().next();
    }

    /** The busy load through the front door, then its figures in one line and one row of the table. */
    void busy(ApiClient api, ServerProbe probe) throws InterruptedException {
        System.out.printf("  (server RSS, threads and /healthz below are node %s's, one of %d; CPU counts every node's server as \"servers\")%n",
                nodeUrls.isEmpty() ? "?" : nodeUrls.keySet().iterator().next(), Math.max(1, nodeUrls.size()));
        BusyScenario busy = new BusyScenario(config, api, probe);
        busy.run();
        Samples toSession = busy.timeToSession();
        double createsPerSecond = toSession.count() / (toSession.max() / 1000.0);
        StatefulCells cells = busy.cells();
        String spread = spread(busy.sessions());
        System.out.printf("  -- %s: %.1f creates/s (%d sessions, the last after %.1f s), create p50=%.0f p95=%.0f ms, "
                        + "execute p50=%.1f p95=%.1f ms (steady state p50=%.1f p95=%.1f), failed cells %d of %d, creates given up %d, sessions per node: %s, "
                        + "machine CPU per cell in the steady state %.2f ms%n",
                config.label(), createsPerSecond, toSession.count(), toSession.max() / 1000.0, toSession.percentile(50),
                toSession.percentile(95), cells.executeMs().percentile(50), cells.executeMs().percentile(95),
                cells.lateMs().percentile(50), cells.lateMs().percentile(95), cells.failed(),
                cells.cells(), busy.failedCreates(), spread, busy.steadyMachineMsPerCell());
        row(config.label(), String.format("%.1f", createsPerSecond),
                String.format("%.0f / %.0f", toSession.percentile(50), toSession.percentile(95)),
                String.format("%.1f / %.1f", cells.executeMs().percentile(50), cells.executeMs().percentile(95)),
                String.format("%.1f / %.1f", cells.lateMs().percentile(50), cells.lateMs().percentile(95)),
                String.format("%d of %d", cells.failed() + busy.failedCreates(), cells.cells() + busy.failedCreates()),
                String.format("%.2f", busy.steadyMachineMsPerCell()), spread);
    }

    /** "n1 100, n2 101, n3 99": the node each session id names ({@code nX.}...). */
    static String spread(List<ApiClient.SessionRef> sessions) {
        Map<String, Long> byNode = sessions.stream()
                .collect(Collectors.groupingBy(s -> s.id().contains(".") ? s.id().substring(0, s.id().indexOf('.')) : "(no node)",
                        TreeMap::new, Collectors.counting()));
        return byNode.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }

    /**
     * One session, created through the front door; ROUND_TRIPS {@code 1+1} executes straight to its
     * node and as many through the front door, taking turns (direct first in even rounds, front first
     * in odd ones) so a drift of the machine's load hits both alike. Each path has its own kept-alive
     * raw connection (the floor client: what is measured is the path, not the client's hand-offs).
     */
    void frontDoor(ApiClient api) throws Exception {
        ApiClient.SessionRef s = api.create(Instant.now().plus(config.createDeadline()));
        String node = s.id().substring(0, s.id().indexOf('.'));
        String direct = nodeUrls.get(node);
        if (direct == null) {
            System.out.println("!! session " + s.id() + " names node " + node + ", whose URL is not in CLUSTER_NODE_URLS " + nodeUrls.keySet());
            api.delete(s);
            return;
        }
        String path = "/api/v1/sessions/" + s.id() + "/execute";
        String body = WireCodec.encode(new ExecuteRequest("1+1", "python", null, List.of()));
        Samples front = new Samples();
        Samples straight = new Samples();
        Samples added = new Samples();
        int[] wrong = new int[1];
        try (RawHttp viaFront = RawHttp.keptAlive(config.url()); RawHttp toNode = RawHttp.keptAlive(direct)) {
            for (int i = 0; i < WARM_UP + config.roundTrips(); i++) {
                boolean counted = i >= WARM_UP;
                double d;
                double f;
                if (i % 2 == 0) {
                    d = timed(toNode, path, s.token(), body, wrong);
                    f = timed(viaFront, path, s.token(), body, wrong);
                } else {
                    f = timed(viaFront, path, s.token(), body, wrong);
                    d = timed(toNode, path, s.token(), body, wrong);
                }
                if (counted) {
                    straight.add(d);
                    front.add(f);
                    added.add(f - d);
                }
            }
        } finally {
            api.delete(s);
        }
        double difference = front.percentile(50) - straight.percentile(50);
        System.out.printf("== front door %s: one session on %s, %d REST executes of 1+1 each way after %d warm-up, taking turns, "
                + "raw socket (keep-alive, TCP_NODELAY)%n", config.label(), node, config.roundTrips(), WARM_UP);
        System.out.printf("  %-60s %s%n", "straight to " + node + " (" + direct + ")", straight.summary("ms", 50, 95));
        System.out.printf("  %-60s %s%n", "through the front door (" + config.url() + ")", front.summary("ms", 50, 95));
        System.out.printf("  %-60s %+.2f ms%n", "added at p50 (front p50 - direct p50; the issue's goal: <= 0.5)", difference);
        System.out.printf("  %-60s p50=%+.2f ms%n", "each round's front minus its direct, median", added.percentile(50));
        if (wrong[0] > 0) {
            System.out.println("  !! " + wrong[0] + " answers were not 200 with 2");
        }
        row("1 session, straight to " + node, "-", "-", String.format("%.2f / %.2f", straight.percentile(50), straight.percentile(95)), "-",
                wrong[0] == 0 ? "0" : wrong[0] + " wrong", "-", "-");
        row("1 session, through the front door", "-", "-", String.format("%.2f / %.2f", front.percentile(50), front.percentile(95)), "-",
                "-", "-", String.format("added at p50: %+.2f ms (each round's median %+.2f)", difference, added.percentile(50)));
    }

    private static double timed(RawHttp http, String path, String token, String body, int[] wrong) throws IOException {
        long t0 = System.nanoTime();
        RawHttp.Reply r = http.exchange("POST", path, token, body);
        double ms = (System.nanoTime() - t0) / 1e6;
        if (!answeredTwo(r)) {
            wrong[0]++;
        }
        return ms;
    }

    private static boolean answeredTwo(RawHttp.Reply r) {
        if (r.status() != 200) {
            return false;
        }
        var results = JsonObject.parse(r.body()).objectList("results");
        return !results.isEmpty() && "2".equals(results.get(0).optString("text/plain", null));
    }

    private void row(String... cells) {
        try {
            Files.writeString(table, String.join("\t", Arrays.asList(cells)) + "\n",
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.out.println("!! could not write the table row to " + table + ": " + e.getMessage());
        }
    }
}
