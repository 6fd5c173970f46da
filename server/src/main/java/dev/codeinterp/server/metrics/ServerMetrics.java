package dev.codeinterp.server.metrics;

import dev.codeinterp.model.Event;
import dev.codeinterp.model.SessionEvent;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;

/**
 * Every metric the server exports, in one registry of its own (so two servers in one JVM, as in
 * the tests, never mix their counts). Instrumented code calls the plain methods below with plain
 * values and never sees a Prometheus type; Main hands this one instance to what it instruments.
 * Names follow Prometheus conventions: {@code codeinterp_} prefix, {@code _total} counters,
 * {@code _seconds} and {@code _bytes} units.
 */
public final class ServerMetrics {
    /** The only language the server runs today; a label already, so adding one changes no series name. */
    static final String PYTHON = "python";
    private static final double[] CELL_BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300};
    private static final double[] FAST_BUCKETS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
    private static final double[] START_BUCKETS = {0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60};

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final String runtime;
    /** When each queued cell was queued, until it starts or finishes: the queue wait. */
    private final Map<String, Long> queuedAt = new ConcurrentHashMap<>();

    private final Counter executions = Counter.builder().name("codeinterp_executions_total")
            .help("Executions (cells) that finished, by how they ended and their language")
            .labelNames("status", "language").register(registry);
    private final Histogram executionSeconds = Histogram.builder().name("codeinterp_execution_duration_seconds")
            .help("How long cells ran, from start to finish").classicOnly().classicUpperBounds(CELL_BUCKETS)
            .labelNames("language").register(registry);
    private final Histogram queueWaitSeconds = Histogram.builder().name("codeinterp_execution_queue_wait_seconds")
            .help("How long cells waited in their session's queue before they started").classicOnly()
            .classicUpperBounds(CELL_BUCKETS).register(registry);
    private final Counter streamedBytes = Counter.builder().name("codeinterp_streamed_bytes_total")
            .help("Bytes of text output cells streamed (UTF-8), by stream").labelNames("stream").register(registry);
    private final Histogram poolAcquireSeconds = Histogram.builder().name("codeinterp_pool_acquire_seconds")
            .help("How long getting a sandbox for a session took: warm from the pool, or cold when it was empty")
            .classicOnly().classicUpperBounds(FAST_BUCKETS).labelNames("source").register(registry);
    private final Counter sandboxStarts = Counter.builder().name("codeinterp_sandbox_starts_total")
            .help("Sandbox containers started, by runtime and outcome").labelNames("runtime", "outcome").register(registry);
    private final Histogram sandboxStartSeconds = Histogram.builder().name("codeinterp_sandbox_start_seconds")
            .help("How long starting a sandbox container took, by runtime").classicOnly().classicUpperBounds(START_BUCKETS)
            .labelNames("runtime").register(registry);
    private final Gauge webSockets = Gauge.builder().name("codeinterp_websocket_connections")
            .help("Open WebSocket connections").register(registry);
    private final Histogram storeCommitSeconds = Histogram.builder().name("codeinterp_store_commit_seconds")
            .help("How long a commit of the event store took (one group of writes)").classicOnly()
            .classicUpperBounds(FAST_BUCKETS).register(registry);
    private final Counter rejections = Counter.builder().name("codeinterp_admission_rejections_total")
            .help("Requests refused by an admission limit, by limit").labelNames("limit").register(registry);

    /** {@code runtime} labels the sandbox series: one server runs one runtime. */
    public ServerMetrics(String runtime) {
        this.runtime = runtime;
        JvmMetrics.builder().register(registry);
    }

    /** The warm pool's ready sandboxes and its target, read at each scrape. */
    public void watchPool(IntSupplier ready, IntSupplier target) {
        GaugeWithCallback.builder().name("codeinterp_pool_ready_sandboxes")
                .help("Started, idle sandboxes waiting in the warm pool")
                .callback(cb -> cb.call(ready.getAsInt())).register(registry);
        GaugeWithCallback.builder().name("codeinterp_pool_target_sandboxes")
                .help("How many idle sandboxes the warm pool keeps")
                .callback(cb -> cb.call(target.getAsInt())).register(registry);
    }

    /** Sessions with a live interpreter, read at each scrape. */
    public void watchSessions(IntSupplier open) {
        GaugeWithCallback.builder().name("codeinterp_sessions_open")
                .help("Sessions open with a live interpreter")
                .callback(cb -> cb.call(open.getAsInt())).register(registry);
    }

    /** Every event a session emits passes here, after it is stored. */
    public void eventEmitted(SessionEvent e) {
        switch (e.event().type()) {
            case QUEUED -> queuedAt.put(e.executionId(), e.timestampMs());
            case STARTED -> {
                Long queued = queuedAt.remove(e.executionId());
                if (queued != null) {
                    queueWaitSeconds.observe(Math.max(0, e.timestampMs() - queued) / 1000.0);
                }
            }
            case STREAM -> streamedBytes.labelValues(((Event.Stream) e.event()).name().wire())
                    .inc(((Event.Stream) e.event()).text().getBytes(StandardCharsets.UTF_8).length);
            case FINISHED -> {
                queuedAt.remove(e.executionId());
                Event.Finished f = (Event.Finished) e.event();
                executions.labelValues(f.status().wire(), PYTHON).inc();
                if (f.durationMs() != null) {
                    executionSeconds.labelValues(PYTHON).observe(f.durationMs() / 1000.0);
                }
            }
            default -> {
            }
        }
    }

    /** A sandbox handed to a session; {@code warm} when the pool had one ready. */
    public void sandboxAcquired(boolean warm, long startedNanos) {
        poolAcquireSeconds.labelValues(warm ? "warm" : "cold").observe(secondsSince(startedNanos));
    }

    /** A sandbox container start that ended, well or not. */
    public void sandboxStarted(boolean ok, long startedNanos) {
        sandboxStarts.labelValues(runtime, ok ? "ok" : "failed").inc();
        if (ok) {
            sandboxStartSeconds.labelValues(runtime).observe(secondsSince(startedNanos));
        }
    }

    public void webSocketOpened() {
        webSockets.inc();
    }

    public void webSocketClosed() {
        webSockets.dec();
    }

    public void storeCommitted(long nanos) {
        storeCommitSeconds.observe(nanos / 1e9);
    }

    /** A request refused by an admission limit; {@code limit} is its wire name. */
    public void rejected(String limit) {
        rejections.labelValues(limit).inc();
    }

    /** The Prometheus text exposition format (version 0.0.4). */
    public String contentType() {
        return PrometheusTextFormatWriter.CONTENT_TYPE;
    }

    public void scrape(OutputStream out) throws IOException {
        PrometheusTextFormatWriter.create().write(out, registry.scrape(), io.prometheus.metrics.config.EscapingScheme.DEFAULT);
    }

    private static double secondsSince(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1e9;
    }
}
