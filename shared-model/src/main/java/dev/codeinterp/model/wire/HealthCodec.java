package dev.codeinterp.model.wire;

import dev.codeinterp.model.health.Health;
import dev.codeinterp.model.json.Json;
import dev.codeinterp.model.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code /healthz}'s body. Decoding is lenient: a part an older server leaves out reads as absent or zero. */
final class HealthCodec {
    private HealthCodec() {
    }

    static String encode(Health h) {
        Map<String, Object> docker = new LinkedHashMap<>();
        docker.put("available", h.docker().available());
        docker.put("version", h.docker().version());
        docker.put("runtimes", new ArrayList<Object>(h.docker().runtimes()));
        docker.put("problem", h.docker().problem());
        Map<String, Object> pool = new LinkedHashMap<>();
        pool.put("ready", h.pool().ready());
        pool.put("target", h.pool().target());
        pool.put("problem", h.pool().problem());
        Map<String, Object> limits = new LinkedHashMap<>();
        limits.put("sessions", h.limits().sessions());
        limits.put("sessions_per_client", h.limits().sessionsPerClient());
        limits.put("queued_cells", h.limits().queuedCells());
        limits.put("concurrent_creates", h.limits().concurrentCreates());
        limits.put("timeout_ms", h.limits().timeoutMs());
        limits.put("max_timeout_ms", h.limits().maxTimeoutMs());
        Map<String, Object> use = new LinkedHashMap<>();
        use.put("sessions", h.use().sessions());
        use.put("creating", h.use().creating());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", h.status());
        m.put("server_mode", h.serverMode());
        m.put("docker", docker);
        m.put("runtime", h.runtime());
        m.put("runtime_version", h.runtimeVersion());
        m.put("runtime_platform", h.runtimePlatform());
        m.put("image", h.image());
        m.put("pool", pool);
        m.put("sessions", h.sessions());
        m.put("auth_required", h.authRequired());
        m.put("limits", limits);
        m.put("use", use);
        Map<String, Object> assistant = new LinkedHashMap<>();
        assistant.put("enabled", h.assistant().enabled());
        assistant.put("model", h.assistant().model());
        if (h.assistant().operatorNote() != null) {
            assistant.put("operator_note", h.assistant().operatorNote());
        }
        m.put("assistant", assistant);
        if (h.idle() != null) {
            Map<String, Object> idle = new LinkedHashMap<>();
            idle.put("keeps_variables", h.idle().keepsVariables());
            idle.put("after_seconds", h.idle().afterSeconds());
            if (h.idle().why() != null) {
                idle.put("why", h.idle().why());
            }
            m.put("idle", idle);
        }
        if (h.runtimeChoice() != null) {
            Map<String, Object> choice = new LinkedHashMap<>();
            choice.put("runtime", h.runtimeChoice().runtime());
            choice.put("chosen_by", h.runtimeChoice().chosenBy());
            choice.put("why", h.runtimeChoice().why());
            m.put("runtime_choice", choice);
        }
        if (h.cluster() != null) {
            Map<String, Object> cluster = new LinkedHashMap<>();
            cluster.put("node", h.cluster().node());
            cluster.put("state", h.cluster().state());
            java.util.List<Object> nodes = new ArrayList<>();
            for (Health.Node n : h.cluster().nodes()) {
                Map<String, Object> node = new LinkedHashMap<>();
                node.put("id", n.id());
                node.put("state", n.state());
                node.put("sessions", n.sessions());
                node.put("capacity", n.capacity());
                node.put("last_heard_ms", n.lastHeardMs());
                nodes.add(node);
            }
            cluster.put("nodes", nodes);
            m.put("cluster", cluster);
        }
        return Json.write(m);
    }

    static Health decode(String json) {
        JsonObject o = JsonObject.parse(json);
        JsonObject d = o.optObject("docker");
        Health.Engine docker = new Health.Engine(d.optBoolean("available", false), d.optString("version", null),
                d.stringList("runtimes"), d.optString("problem", null));
        JsonObject p = o.optObject("pool");
        Health.Pool pool = new Health.Pool(count(p, "ready"), count(p, "target"), p.optString("problem", null));
        Health.Limits limits = null;
        if (o.has("limits")) {
            JsonObject l = o.object("limits");
            limits = new Health.Limits(count(l, "sessions"), count(l, "sessions_per_client"), count(l, "queued_cells"),
                    count(l, "concurrent_creates"), Math.max(0, l.optInteger("timeout_ms", 0)),
                    Math.max(0, l.optInteger("max_timeout_ms", 0)));
        }
        Health.Use use = null;
        if (o.has("use")) {
            JsonObject u = o.object("use");
            use = new Health.Use(count(u, "sessions"), count(u, "creating"));
        }
        JsonObject a = o.optObject("assistant");
        Health.Assistant assistant = a.optBoolean("enabled", false)
                ? new Health.Assistant(true, a.optString("model", null), null)
                : new Health.Assistant(false, null, a.optString("operator_note", null));
        Health.Idle idle = null;
        if (o.has("idle")) {
            JsonObject i = o.object("idle");
            idle = new Health.Idle(i.optBoolean("keeps_variables", false), i.optInteger("after_seconds", 0), i.optString("why", null));
        }
        Health.RuntimeChoice choice = null;
        if (o.has("runtime_choice")) {
            JsonObject c = o.object("runtime_choice");
            choice = new Health.RuntimeChoice(c.optString("runtime", null), c.optString("chosen_by", null), c.optString("why", null));
        }
        Health.Cluster cluster = null;
        if (o.has("cluster")) {
            JsonObject c = o.object("cluster");
            java.util.List<Health.Node> nodes = new ArrayList<>();
            for (JsonObject n : c.objectList("nodes")) {
                nodes.add(new Health.Node(n.optString("id", null), n.optString("state", null), count(n, "sessions"),
                        count(n, "capacity"), n.optInteger("last_heard_ms", 0)));
            }
            cluster = new Health.Cluster(c.optString("node", null), c.optString("state", null), java.util.List.copyOf(nodes));
        }
        return new Health(docker, o.optString("runtime", null), o.optString("runtime_version", null), o.optString("image", null),
                pool, count(o, "sessions"), o.optBoolean("auth_required", false), limits, use, assistant, idle, choice, cluster,
                o.optString("runtime_platform", null));
    }

    static String encode(Health.Room r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("room", r.room());
        m.put("why", r.why());
        m.put("sessions", r.sessions());
        m.put("capacity", r.capacity());
        return Json.write(m);
    }

    static Health.Room decodeRoom(String json) {
        JsonObject o = JsonObject.parse(json);
        return new Health.Room(o.optBoolean("room", false), o.optString("why", null), count(o, "sessions"), count(o, "capacity"));
    }

    private static int count(JsonObject o, String key) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, o.optInteger(key, 0)));
    }
}
