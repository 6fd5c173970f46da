package dev.codeinterp.server.api;

import dev.codeinterp.model.health.Health;

/**
 * What {@code /healthz} says of the sandbox engine and the warm pool. The composition root answers it
 * from the sandbox layer, which the API does not reach.
 */
public interface EngineHealth {
    /** The engine as it answers now (asked once per request): its state, and the runtime and image it runs. */
    Engine now();

    /** The warm pool: idle sandboxes, its target, its last problem. */
    Health.Pool pool();

    record Engine(Health.Engine state, String runtime, String runtimeVersion, String runtimePlatform, String image) {
    }
}
