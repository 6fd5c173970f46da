package dev.codeinterp.server.api;

import dev.codeinterp.model.json.Json;
import dev.codeinterp.server.sandbox.EngineInfo;
import dev.codeinterp.server.sandbox.SandboxBackend;
import dev.codeinterp.server.sandbox.SandboxPool;
import dev.codeinterp.server.session.Admission;
import dev.codeinterp.server.session.AdmissionLimits;
import dev.codeinterp.server.session.SessionManager;
import io.javalin.http.Context;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code /healthz}: says plainly whether code can run here, and if not, why. */
final class HealthApi {
    private final SandboxBackend backend;
    private final SandboxPool pool;
    private final SessionManager sessions;
    private final boolean keysRequired;

    HealthApi(SandboxBackend backend, SandboxPool pool, SessionManager sessions, boolean keysRequired) {
        this.backend = backend;
        this.pool = pool;
        this.sessions = sessions;
        this.keysRequired = keysRequired;
    }

    void health(Context ctx) {
        EngineInfo info = backend.info();
        Map<String, Object> docker = new LinkedHashMap<>();
        docker.put("available", info.available());
        docker.put("version", info.version());
        docker.put("runtimes", new ArrayList<Object>(info.runtimes()));
        docker.put("problem", info.problem());
        Map<String, Object> poolState = new LinkedHashMap<>();
        poolState.put("ready", pool == null ? 0 : pool.idleCount());
        poolState.put("target", pool == null ? 0 : pool.target());
        poolState.put("problem", pool == null ? null : pool.lastProblem());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", info.available() ? "ok" : "degraded");
        body.put("server_mode", info.available());
        body.put("docker", docker);
        body.put("runtime", info.runtime());
        body.put("image", info.image());
        body.put("pool", poolState);
        body.put("sessions", sessions.liveCount());
        body.put("auth_required", keysRequired);
        Admission admission = sessions.admission();
        AdmissionLimits l = admission.limits();
        Map<String, Object> limits = new LinkedHashMap<>();
        limits.put("sessions", l.maxSessions());
        limits.put("sessions_per_client", l.maxSessionsPerClient());
        limits.put("queued_cells", l.maxQueuedCells());
        limits.put("concurrent_creates", l.maxConcurrentCreates());
        body.put("limits", limits);
        Map<String, Object> use = new LinkedHashMap<>();
        use.put("sessions", admission.open());
        use.put("creating", admission.creating());
        body.put("use", use);
        RestApi.json(ctx, 200, Json.write(body));
    }
}
