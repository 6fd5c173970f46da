package dev.codeinterp.server;

import dev.codeinterp.model.health.Health;
import dev.codeinterp.server.api.EngineHealth;
import dev.codeinterp.server.sandbox.EngineInfo;
import dev.codeinterp.server.sandbox.SandboxBackend;
import dev.codeinterp.server.sandbox.SandboxPool;

/** {@link EngineHealth} as the sandbox layer answers it: the engine's info and the warm pool's counts. */
final class SandboxHealth implements EngineHealth {
    private final SandboxBackend backend;
    private final SandboxPool pool;

    SandboxHealth(SandboxBackend backend, SandboxPool pool) {
        this.backend = backend;
        this.pool = pool;
    }

    @Override
    public Engine now() {
        EngineInfo info = backend.info();
        return new Engine(new Health.Engine(info.available(), info.version(), info.runtimes(), info.problem()), info.runtime(),
                info.runtimeVersion(), info.runtimePlatform(), info.image());
    }

    @Override
    public Health.Pool pool() {
        return pool == null ? new Health.Pool(0, 0, null) : new Health.Pool(pool.idleCount(), pool.target(), pool.lastProblem());
    }
}
