package dev.codeinterp.server.sandbox;

/**
 * The hardening contract under gVisor, runsc, on the platform scripts/setup-host.sh registers:
 * systrap, where a memory bomb ends {@code oom} only because the server's {@link OomWatch} ends it.
 */
class RunscHardeningTest extends HardeningContract {
    @Override
    String runtime() {
        return "runsc";
    }

    @Override
    String platform() {
        return "systrap";
    }
}
