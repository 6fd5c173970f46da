package dev.codeinterp.server.bench;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import dev.codeinterp.model.rest.ExecuteRequest;
import dev.codeinterp.model.session.ClientMessage;
import dev.codeinterp.model.session.ServerMessage;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.testing.WsClient;

import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code 1+1} on one warm session over REST and over the WebSocket, and the pieces a REST round
 * trip is made of, each measured on its own: the HTTP stack alone (an unknown path), the session
 * lookup (a wrong token: SQLite read + token hash), lookup plus subscribe (the history of nothing),
 * and the same execute from a raw socket instead of the JDK HttpClient. Probes take turns, so a
 * noisy neighbour on the machine disturbs all of them alike. Printed apart: the warm-up rounds (a
 * server just started) and cells after an idle INTERVAL (as a busy user's are).
 */
final class RoundTripScenario {
    private static final int WARM_UP = 20;
    private static final String NOTHING_AFTER = "?after=" + Long.MAX_VALUE;
    /** 1+1 as the WebSocket probe's own cell: the same work, told apart from the REST probes' cells. */
    private static final String WS_CODE = "1+1 # ws";

    private final BenchConfig config;
    /** When each frame of the WebSocket probe's cell arrived, after the execute was sent. */
    private final Map<String, Samples> frameArrivals = new LinkedHashMap<>();
    /** Where warm-up rounds put the server's times, so they are not counted. */
    private final Samples scratch = new Samples();

    RoundTripScenario(BenchConfig config) {
        this.config = config;
    }

    /** One measured thing: client wall time, and where known the server's own view of the same request. */
    private record Probe(String name, Step step, Samples wall, Samples server, Samples cold, int[] errors) {
        Probe(String name, Step step) {
            this(name, step, new Samples(), new Samples(), new Samples(), new int[1]);
        }
    }

    private interface Step {
        /** Runs once; records the server-side time in {@code server} when the answer tells it; false when the answer was wrong. */
        boolean run(Samples server) throws Exception;
    }

    void run() throws Exception {
        ApiClient http11 = new ApiClient(config.url(), config.apiKey(), HttpClient.Version.HTTP_1_1);
        ApiClient http2 = new ApiClient(config.url(), config.apiKey(), HttpClient.Version.HTTP_2);
        ApiClient.SessionRef s = http11.create(Instant.now().plusSeconds(120));
        ApiClient.SessionRef alone = http11.create(Instant.now().plusSeconds(120));
        String execPath = "/api/v1/sessions/" + s.id() + "/execute";
        String eventsPath = "/api/v1/sessions/" + s.id() + "/events";
        String onePlusOne = WireCodec.encode(new ExecuteRequest("1+1", "python", null, List.of()));
        try (BackgroundLoad load = BackgroundLoad.start(http11, config.interval(), config.jitter(), config.ownConnections(), config.fixedRate(), config.background(),
                Instant.now().plus(config.createDeadline()));
             WsClient ws = WsClient.connect(config.url().replaceFirst("^http", "ws") + "/api/v1/sessions/" + s.id() + "/ws", null);
             RawHttp raw = RawHttp.keptAlive(config.url());
             RawHttp nagle = RawHttp.nagleSplit(config.url());
             RawHttp fresh = RawHttp.connectionPerRequest(config.url())) {
            ws.send(new ClientMessage.Hello(s.token(), 0));
            ws.next(10_000);
            List<Probe> probes = List.of(
                    new Probe("WebSocket execute -> finished frame", server -> webSocket(ws, server)),
                    new Probe("REST execute, JDK HttpClient HTTP/1.1", server -> restOk(http11.execute(s, "1+1"), server)),
                    new Probe("REST execute, JDK HttpClient default (HTTP/2 preferred)", server -> restOk(http2.execute(s, "1+1"), server)),
                    new Probe("REST execute, raw socket (keep-alive, TCP_NODELAY, one write)",
                            server -> restOk(raw.exchange("POST", execPath, s.token(), onePlusOne), server)),
                    new Probe("REST execute, raw socket, on a second session no WebSocket listens to",
                            server -> restOk(raw.exchange("POST", "/api/v1/sessions/" + alone.id() + "/execute", alone.token(), onePlusOne), server)),
                    new Probe("REST execute, raw socket, head and body in two writes, Nagle on",
                            server -> restOk(nagle.exchange("POST", execPath, s.token(), onePlusOne), server)),
                    new Probe("REST execute, raw socket, a new connection per request",
                            server -> restOk(fresh.exchange("POST", execPath, s.token(), onePlusOne), server)),
                    new Probe("GET unknown path -> 404 (Jetty + Javalin only), raw socket",
                            server -> raw.exchange("GET", "/api/v1/bench-no-such-path", null, null).status() == 404),
                    new Probe("GET unknown path -> 404, JDK HttpClient HTTP/1.1",
                            server -> http11.get("/api/v1/bench-no-such-path", null, Duration.ofSeconds(30)).status() == 404),
                    new Probe("GET events, wrong token -> 404 (session lookup: SQLite read + hash), raw socket",
                            server -> raw.exchange("GET", eventsPath + NOTHING_AFTER, "x" + s.token(), null).status() == 404),
                    new Probe("GET events after the last (lookup + subscribe, no cell), raw socket",
                            server -> raw.exchange("GET", eventsPath + NOTHING_AFTER, s.token(), null).status() == 200));
            for (int i = 0; i < WARM_UP + config.roundTrips(); i++) {
                for (Probe p : probes) {
                    Samples server = i < WARM_UP ? scratch : p.server();
                    long t0 = System.nanoTime();
                    boolean ok = p.step().run(server);
                    (i < WARM_UP ? p.cold() : p.wall()).add((System.nanoTime() - t0) / 1e6);
                    p.errors()[0] += ok ? 0 : 1;
                }
            }
            print(probes);
            printCold(probes);
            afterIdleGap(ws, http11, s);
            if (config.background() > 0) {
                System.out.println("  background users while measuring: " + load.summary());
            }
        } finally {
            http11.delete(s);
            http11.delete(alone);
        }
    }

    /**
     * The same cells after the session sat idle for one INTERVAL, as a busy user's are: back to back,
     * everything is warm (caches, the runner's pages, the scheduler's choice of core); every 2 s, not.
     */
    private void afterIdleGap(WsClient ws, ApiClient http11, ApiClient.SessionRef s) throws Exception {
        int rounds = config.gapRounds();
        if (rounds == 0) {
            return;
        }
        Probe webSocket = new Probe("WebSocket execute -> finished frame", server -> webSocket(ws, server));
        Probe rest = new Probe("REST execute, JDK HttpClient HTTP/1.1", server -> restOk(http11.execute(s, "1+1"), server));
        for (int i = 0; i < rounds; i++) {
            for (Probe p : List.of(webSocket, rest)) {
                Thread.sleep(config.interval().toMillis());
                long t0 = System.nanoTime();
                boolean ok = p.step().run(p.server());
                p.wall().add((System.nanoTime() - t0) / 1e6);
                p.errors()[0] += ok ? 0 : 1;
            }
        }
        System.out.printf("  -- the same after %.1f s idle before each cell (n=%d each)%n", config.interval().toMillis() / 1000.0, rounds);
        print(List.of(webSocket, rest), false);
    }

    /**
     * Execute, wait for that cell's finished frame; the server's time is finished.time - queued.time
     * (its ms clock). The socket also carries the REST probes' cells of the same session: the cell
     * is told apart by its code, then by its execution id.
     */
    private boolean webSocket(WsClient ws, Samples server) throws InterruptedException {
        long t0 = System.nanoTime();
        Map<String, Double> arrivals = new LinkedHashMap<>();
        ws.send(new ClientMessage.Execute(WS_CODE, null));
        String executionId = null;
        long queuedAt = -1;
        boolean sawTwo = false;
        while (true) {
            ServerMessage m = ws.next(30_000);
            if (!(m instanceof ServerMessage.EventFrame f)) {
                continue;
            }
            SessionEvent e = f.event();
            if (executionId == null) {
                if (e.event() instanceof Event.Queued q && WS_CODE.equals(q.code())) {
                    executionId = e.executionId();
                    queuedAt = e.timestampMs();
                }
            }
            if (executionId != null && executionId.equals(e.executionId())) {
                arrivals.put(e.event().type().wire(), (System.nanoTime() - t0) / 1e6);
                if (e.event() instanceof Event.ExecuteResult r) {
                    sawTwo = "2".equals(r.data().get("text/plain"));
                } else if (e.event() instanceof Event.Finished done) {
                    server.add(e.timestampMs() - queuedAt);
                    if (server != scratch) {
                        arrivals.forEach((type, ms) -> frameArrivals.computeIfAbsent(type, k -> new Samples()).add(ms));
                    }
                    return sawTwo && done.status() == dev.codeinterp.model.Status.OK;
                }
            }
        }
    }

    private static boolean restOk(ApiClient.Reply r, Samples server) {
        return restOk(r.status(), r.body(), server);
    }

    private static boolean restOk(RawHttp.Reply r, Samples server) {
        return restOk(r.status(), r.body(), server);
    }

    /** The server's executionTime (collector made -> finished seen) is its own view of the cell. */
    private static boolean restOk(int status, String body, Samples server) {
        if (status != 200) {
            return false;
        }
        var o = dev.codeinterp.model.json.JsonObject.parse(body);
        server.add(o.number("executionTime") * 1000);
        var results = o.objectList("results");
        return "ok".equals(o.string("status")) && !results.isEmpty() && "2".equals(results.get(0).optString("text/plain", null));
    }

    /** The warm-up rounds, kept: what the first requests to a server just started cost, before its JIT has compiled them. */
    private static void printCold(List<Probe> probes) {
        System.out.printf("  -- the %d warm-up rounds, on a server just started (its JIT not yet warm)%n", WARM_UP);
        for (Probe p : probes) {
            System.out.printf("  %-88s %s%n", p.name(), p.cold().summary("ms", 50, 95));
        }
    }

    private void print(List<Probe> probes) {
        print(probes, true);
    }

    private void print(List<Probe> probes, boolean withHeader) {
        if (withHeader) {
            String load = config.background() == 0 ? "no other load"
                    : config.background() + " background users each running a cell every " + config.interval().toMillis() / 1000.0 + " s"
                    + (config.jitter() ? " (loops started at random points)" : " (loops in step)");
            System.out.printf("== round trip %s: one warm session, probes taking turns, n=%d each after %d warm-up; %s%n",
                    config.label(), config.roundTrips(), WARM_UP, load);
        }
        List<String> lines = new ArrayList<>();
        for (Probe p : probes) {
            lines.add(String.format("  %-88s %s%s", p.name(), p.wall().summary("ms", 50, 95),
                    p.errors()[0] == 0 ? "" : "  !! " + p.errors()[0] + " wrong answers"));
            if (p.server().count() > 0) {
                lines.add(String.format("  %-88s %s", "    of which the server's own time for the cell", p.server().summary("ms", 50, 95)));
            }
        }
        if (withHeader) {
            frameArrivals.forEach((type, ms) -> lines.add(String.format("  %-88s %s",
                    "WebSocket probe: its '" + type + "' frame arrived after", ms.summary("ms", 50, 95))));
        }
        lines.forEach(System.out::println);
    }
}
