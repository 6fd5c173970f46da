package dev.codeinterp.server.sandbox;

/**
 * The hardening contract under gVisor, runsc, on the platform scripts/setup-host.sh registers:
 * ptrace. The memory bomb's promise holds on systrap too, there only because the server's
 * {@link OomWatch} ends the sandbox (checked by hand: 1.8 s for the bomb and the next cell).
 */
class RunscHardeningTest extends HardeningContract {
    @Override
    String runtime() {
        return "runsc";
    }

    @Override
    String platform() {
        return "ptrace";
    }
}
