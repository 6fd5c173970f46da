package dev.codeinterp.server.api;

import dev.codeinterp.model.health.Health;
import dev.codeinterp.model.wire.WireCodec;
import dev.codeinterp.server.cluster.NodeRegistry;
import dev.codeinterp.server.config.RuntimeChoice;
import dev.codeinterp.server.session.Admission;
import dev.codeinterp.server.session.AdmissionLimits;
import dev.codeinterp.server.session.CellLimits;
import dev.codeinterp.server.session.SessionManager;
import io.javalin.http.Context;

/** {@code /healthz}: says plainly whether code can run here, and if not, why. */
final class HealthApi {
    private final EngineHealth engine;
    private final RuntimeChoice runtime;
    private final SessionManager sessions;
    private final boolean keysRequired;

    private final Health.Assistant assistant;

    private final NodeRegistry node;

    HealthApi(EngineHealth engine, RuntimeChoice runtime, SessionManager sessions, boolean keysRequired,
              Health.Assistant assistant, NodeRegistry node) {
        this.node = node;
        this.assistant = assistant;
        this.engine = engine;
        this.runtime = runtime;
        this.sessions = sessions;
        this.keysRequired = keysRequired;
    }

    /** This node's state on every /healthz answer: active, draining, or drained (its sessions all handed over). */
    static final String NODE_STATE = "X-CodeInterp-Node-State";

    void health(Context ctx) {
        EngineHealth.Engine info = engine.now();
        Health.Engine docker = info.state();
        Health.Pool poolState = engine.pool();
        Admission admission = sessions.admission();
        AdmissionLimits l = admission.limits();
        CellLimits cells = sessions.cellLimits();
        Health.Limits limits = new Health.Limits(l.maxSessions(), l.maxSessionsPerClient(), l.maxQueuedCells(), l.maxConcurrentCreates(),
                cells.defaultTimeout().toMillis(), cells.maxTimeout().toMillis());
        Health.Use use = new Health.Use(admission.open(), admission.creating());
        Health.Idle idle = sessions.residency().idle();
        Health health = new Health(docker, info.runtime(), info.runtimeVersion(), info.image(), poolState, sessions.liveCount(),
                keysRequired, limits, use, assistant, idle, runtimeChoice(idle), cluster(), info.runtimePlatform());
        // the front door stops routing this node's old session ids here once it has handed every session over
        ctx.header(NODE_STATE, node.handedOver() ? "drained" : node.state());
        RestApi.json(ctx, 200, WireCodec.encode(health));
    }

    /**
     * {@code /healthz/room}: 200 while this node takes new sessions, else 503 with why (draining,
     * full, no engine). A front door's health check on it sends creates to nodes with room, while
     * requests for the sessions a node already holds still reach it.
     */
    void room(Context ctx) {
        Admission admission = sessions.admission();
        int open = admission.open();
        int capacity = admission.limits().maxSessions();
        String why = null;
        Health.Engine docker = engine.now().state();
        if (!node.active()) {
            why = "this node is " + node.state() + ": it takes no new sessions";
        } else if (!docker.available()) {
            why = "no sandbox can be started here: " + docker.problem();
        } else if (open >= capacity) {
            why = "this node is full: " + open + " sessions open, its MAX_SESSIONS";
        }
        RestApi.json(ctx, why == null ? 200 : 503, WireCodec.encode(new Health.Room(why == null, why, open, capacity)));
    }

    /** This node and the others as its last heartbeat saw them: states and counts, never addresses. */
    private Health.Cluster cluster() {
        long now = System.currentTimeMillis();
        return new Health.Cluster(node.id(), node.state(), node.nodes().stream()
                .map(n -> new Health.Node(n.id(), n.state(), n.sessions(), n.capacity(), Math.max(0, now - n.heartbeatAt())))
                .toList());
    }

    /** The choice made at start; a fallback also says what it costs idle sessions, as {@code idle} has it. */
    private Health.RuntimeChoice runtimeChoice(Health.Idle idle) {
        String why = runtime.why();
        if (runtime.fallback() && idle != null && !idle.keepsVariables()) {
            why += "; variables are not kept past idle (see idle)";
        }
        return new Health.RuntimeChoice(runtime.runtime(), runtime.chosenBy().wire(), why);
    }
}
