package dev.codeinterp.server;

/** The hardening contract under gVisor, runsc. */
class RunscHardeningTest extends HardeningContract {
    @Override
    String runtime() {
        return "runsc";
    }
}
